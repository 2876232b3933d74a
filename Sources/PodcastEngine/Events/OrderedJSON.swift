import Foundation
import PodcastFeeds

/// A JSON value whose objects keep their keys in the order given, so every line the daemon
/// writes has a stable, documented key order (Foundation's `JSONEncoder` can only sort keys).
public indirect enum OrderedJSON: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// An integer, written without a fraction.
    case int(Int64)
    /// A number; written as an integer when it is whole, `null` when not finite.
    case number(Double)
    /// A string, escaped per RFC 8259.
    case string(String)
    /// An array.
    case array([OrderedJSON])
    /// An object, keys in this order.
    case object([(String, OrderedJSON)])

    /// Equality with keys compared in order.
    public static func == (lhs: OrderedJSON, rhs: OrderedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// `.string(s)` or `.null`.
    public static func string(_ s: String?) -> OrderedJSON { s.map { .string($0) } ?? .null }
    /// `.int(i)` or `.null`.
    public static func int(_ i: Int?) -> OrderedJSON { i.map { .int(Int64($0)) } ?? .null }
    /// `.int(i)` or `.null`.
    public static func int(_ i: Int64?) -> OrderedJSON { i.map { .int($0) } ?? .null }
    /// `.number(d)` or `.null`.
    public static func number(_ d: Double?) -> OrderedJSON { d.map { .number($0) } ?? .null }
    /// `.bool(b)` or `.null`.
    public static func bool(_ b: Bool?) -> OrderedJSON { b.map { .bool($0) } ?? .null }
    /// An ISO 8601 UTC timestamp with seconds (`2024-01-31T12:00:00Z`), or `.null`.
    public static func date(_ d: Date?) -> OrderedJSON { d.map { .string(OrderedJSON.iso8601($0)) } ?? .null }

    /// `date` as `YYYY-MM-DDTHH:MM:SSZ` in UTC. Thread-safe (no shared formatter).
    public static func iso8601(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(
                .colon
            ).timeZone(separator: .omitted))
    }

    /// The compact serialisation: no spaces, no newline, `/` not escaped, non-ASCII kept as UTF-8.
    public var serialized: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d):
            if !d.isFinite {
                out += "null"
            } else if d == d.rounded(), abs(d) < 1e15 {
                out += String(Int64(d))
            } else {
                out += "\(d)"
            }
        case .string(let s): OrderedJSON.escape(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                OrderedJSON.escape(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    private static func escape(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"  // JS line separators, for consumers that eval
            case "\u{2029}": out += "\\u2029"
            default:
                // C0 as RFC 8259 requires; C1 controls and bidi overrides too, so JSON read on a
                // terminal cannot carry an escape sequence either (still exact once decoded).
                if scalar.value < 0x20 || TerminalText.isUnsafe(scalar) {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
