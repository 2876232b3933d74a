import Foundation

/// A value bound to a statement parameter: SQLite's five storage classes.
public enum SQLValue: Equatable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob(Data)
}

/// Converts a Swift value to the `SQLValue` it is stored as.
public protocol SQLValueConvertible {
    /// The stored form.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLValueConvertible, ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral
{
    /// Itself.
    public var sqlValue: SQLValue { self }
    /// `nil` binds NULL.
    public init(nilLiteral: ()) { self = .null }
    /// An integer literal binds an integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A string literal binds text.
    public init(stringLiteral value: String) { self = .text(value) }

    /// `value`'s stored form, NULL for `nil`.
    public init<T: SQLValueConvertible>(_ value: T?) {
        self = value?.sqlValue ?? .null
    }
    /// A date, stored as REAL Unix seconds (`timeIntervalSince1970`); NULL for `nil`.
    public static func date(_ value: Date?) -> SQLValue {
        value.map { .real($0.timeIntervalSince1970) } ?? .null
    }
}

extension Int64: SQLValueConvertible {
    /// An integer.
    public var sqlValue: SQLValue { .integer(self) }
}
extension Int: SQLValueConvertible {
    /// An integer.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}
extension Double: SQLValueConvertible {
    /// A real.
    public var sqlValue: SQLValue { .real(self) }
}
extension Bool: SQLValueConvertible {
    /// 1 or 0, as SQLite stores booleans.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}
extension String: SQLValueConvertible {
    /// Text.
    public var sqlValue: SQLValue { .text(self) }
}
extension Data: SQLValueConvertible {
    /// A blob.
    public var sqlValue: SQLValue { .blob(self) }
}
extension Date: SQLValueConvertible {
    /// REAL Unix seconds (`timeIntervalSince1970`).
    public var sqlValue: SQLValue { .real(timeIntervalSince1970) }
}
