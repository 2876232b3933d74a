import Foundation
import LoopScheduler

/// A wall-clock instant for the Foundation schedulers: `RunLoop.SchedulerTimeType` (here) and
/// `OperationQueue.SchedulerTimeType` (ViewModelKitFoundation) are both this type. It wraps a
/// `Date` and strides in seconds (`TimeInterval`; integer and float literals are seconds), with
/// the shape of Combine's two types, which on Apple platforms are distinct nominal types of the
/// same shape: code spelled with Apple's names compiles unchanged; only code that overloads a
/// function on the two types (nothing Combine itself does) would see one type here.
public struct DateSchedulerTime: Strideable, Codable, Hashable, Sendable {
    /// The instant.
    public var date: Date

    /// Wraps `date`.
    public init(_ date: Date) {
        self.date = date
    }

    /// The seconds from `self` to `other`.
    public func distance(to other: DateSchedulerTime) -> Stride {
        Stride(other.date.timeIntervalSince(date))
    }

    /// `self` moved by `n` seconds.
    public func advanced(by n: Stride) -> DateSchedulerTime {
        DateSchedulerTime(date.addingTimeInterval(n.magnitude))
    }

    /// A signed span in seconds, as Combine's `RunLoop.SchedulerTimeType.Stride`: literals are
    /// seconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
        Codable, Hashable, Sendable
    {
        /// The span in seconds (Combine calls it both `magnitude` and `timeInterval`).
        public var magnitude: TimeInterval

        /// The span in seconds.
        public var timeInterval: TimeInterval { magnitude }

        /// A span of `timeInterval` seconds.
        public init(_ timeInterval: TimeInterval) {
            magnitude = timeInterval
        }

        /// `1` means one second.
        public init(integerLiteral value: TimeInterval) {
            magnitude = value
        }

        /// `0.5` means half a second.
        public init(floatLiteral value: TimeInterval) {
            magnitude = value
        }

        /// Whole seconds; `nil` if not exactly representable.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let seconds = TimeInterval(exactly: source) else { return nil }
            magnitude = seconds
        }

        /// `s` seconds.
        public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
        /// `s` seconds.
        public static func seconds(_ s: Double) -> Stride { Stride(s) }
        /// `ms` milliseconds.
        public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
        /// `us` microseconds.
        public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
        /// `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }

        /// Orders spans by length.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
        /// Sum.
        public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
        /// Difference.
        public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
        /// Product of the second counts.
        public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
        /// Adds in place.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        /// Subtracts in place.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// Multiplies in place.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
    }
}
