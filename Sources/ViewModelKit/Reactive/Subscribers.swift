/// Namespace for subscriber types and the demand/completion values, as Combine's `Subscribers`.
public enum Subscribers {}

extension Subscribers {
    /// How a stream ended, as Combine's `Subscribers.Completion`.
    public enum Completion<Failure: Error> {
        /// The publisher finished normally.
        case finished
        /// The publisher stopped because of `Failure`.
        case failure(Failure)
    }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}

extension Subscribers {
    /// A requested number of values, as Combine's `Subscribers.Demand`: `.unlimited` or a
    /// non-negative `.max(n)`, `n` up to `Int.max`.
    ///
    /// All arithmetic saturates, as Combine documents it: a result below zero is `.none`, a sum or
    /// product past `Int.max` is `.unlimited`, and nothing traps (only `.max(_:)` of a negative
    /// number does, as in Combine). `.unlimited` plus, minus or times anything stays `.unlimited`
    /// (`.unlimited - .unlimited` included, as Combine was recorded to answer); a finite demand
    /// minus `.unlimited` is `.none`. Subtracting a negative count adds it, and `.none` results if
    /// that passes `Int.max` (Combine's recorded answer for `.max(Int.max) - (-1)`).
    public struct Demand: Equatable, Comparable, Hashable, Sendable, CustomStringConvertible {
        // nil means unlimited.
        @usableFromInline let rawValue: Int?

        @inlinable init(rawValue: Int?) {
            self.rawValue = rawValue
        }

        /// As many values as the publisher can produce.
        public static let unlimited = Demand(rawValue: nil)
        /// No values.
        public static let none = Demand(rawValue: 0)

        /// At most `value` values. Traps (`precondition`) if `value` is negative, as Combine does.
        @inlinable public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "Subscribers.Demand.max: a demand cannot be negative (\(value))")
            return Demand(rawValue: value)
        }

        /// The finite count, or `nil` for `.unlimited`.
        @inlinable public var max: Int? { rawValue }

        /// `"unlimited"` or `"max(n)"`.
        public var description: String {
            rawValue.map { "max(\($0))" } ?? "unlimited"
        }

        /// Saturating sum.
        @inlinable public static func + (lhs: Demand, rhs: Demand) -> Demand {
            guard let l = lhs.rawValue, let r = rhs.rawValue else { return .unlimited }
            let (sum, overflow) = l.addingReportingOverflow(r)
            return overflow ? .unlimited : Demand(rawValue: sum)
        }

        /// Saturating sum with a count (a negative count subtracts, floored at zero; `Int.min`
        /// included).
        @inlinable public static func + (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.rawValue else { return .unlimited }
            // `l` is never negative, so only a positive `rhs` can overflow.
            let (sum, overflow) = l.addingReportingOverflow(rhs)
            return overflow ? .unlimited : Demand(rawValue: Swift.max(0, sum))
        }

        /// Difference floored at zero; `.unlimited - x` stays unlimited (`.unlimited - .unlimited`
        /// too, as recorded for Combine), `n - .unlimited` is `.none`.
        @inlinable public static func - (lhs: Demand, rhs: Demand) -> Demand {
            guard let l = lhs.rawValue else { return .unlimited }
            guard let r = rhs.rawValue else { return .none }
            return Demand(rawValue: Swift.max(0, l - r))
        }

        /// Difference with a count, floored at zero; `.unlimited` stays unlimited. A negative
        /// count adds, and a result past `Int.max` is `.none`, as recorded for Combine.
        @inlinable public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.rawValue else { return .unlimited }
            let (d, overflow) = l.subtractingReportingOverflow(rhs)
            if overflow { return .none }
            return Demand(rawValue: Swift.max(0, d))
        }

        /// Saturating product with a count: past `Int.max` it is `.unlimited`; a negative count
        /// gives `.none` (a negative demand is clamped to zero, as Combine documents; Combine
        /// itself traps there). `.unlimited` times anything stays `.unlimited`.
        @inlinable public static func * (lhs: Demand, rhs: Int) -> Demand {
            guard let l = lhs.rawValue else { return .unlimited }
            if rhs < 0 { return .none }
            let (p, overflow) = l.multipliedReportingOverflow(by: rhs)
            return overflow ? .unlimited : Demand(rawValue: p)
        }

        /// Adds in place, saturating.
        @inlinable public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
        /// Adds a count in place, saturating.
        @inlinable public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }
        /// Subtracts in place, floored at zero.
        @inlinable public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
        /// Subtracts a count in place, floored at zero.
        @inlinable public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }
        /// Multiplies in place, saturating.
        @inlinable public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

        /// `.unlimited` is greater than every finite demand.
        @inlinable public static func < (lhs: Demand, rhs: Demand) -> Bool {
            switch (lhs.rawValue, rhs.rawValue) {
            case (nil, _): return false
            case (_, nil): return true
            case (let l?, let r?): return l < r
            }
        }

        /// Compares with a count; `.unlimited` is greater than any count.
        @inlinable public static func < (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue.map { $0 < rhs } ?? false }
        /// Compares with a count.
        @inlinable public static func <= (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue.map { $0 <= rhs } ?? false }
        /// Compares with a count; `.unlimited` is greater than any count.
        @inlinable public static func > (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue.map { $0 > rhs } ?? true }
        /// Compares with a count.
        @inlinable public static func >= (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue.map { $0 >= rhs } ?? true }
        /// Compares a count with a demand.
        @inlinable public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
        /// Compares a count with a demand.
        @inlinable public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
        /// Compares a count with a demand.
        @inlinable public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
        /// Compares a count with a demand.
        @inlinable public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }
        /// True if the demand is finite and equal to `rhs`.
        @inlinable public static func == (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue == rhs }
        /// True unless the demand is finite and equal to `rhs`.
        @inlinable public static func != (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue != rhs }
        /// True if `rhs` is finite and equal to `lhs`.
        @inlinable public static func == (lhs: Int, rhs: Demand) -> Bool { rhs.rawValue == lhs }
        /// True unless `rhs` is finite and equal to `lhs`.
        @inlinable public static func != (lhs: Int, rhs: Demand) -> Bool { rhs.rawValue != lhs }
    }
}
