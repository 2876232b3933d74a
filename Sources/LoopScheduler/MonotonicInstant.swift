#if canImport(Glibc)
import Glibc
#endif

/// A point on the monotonic clock, in nanoseconds since an unspecified origin (Linux
/// `CLOCK_MONOTONIC`). It is `LoopScheduler.SchedulerTimeType` and `TestScheduler`'s time type,
/// so code written against one runs on the other.
///
/// The value never goes backwards and is unaffected by wall-clock changes. It is not a date:
/// compare instants only with instants from the same boot. `Codable` (as Combine's scheduler time
/// types are) with its nanoseconds under `nanoseconds`, and so is its `Stride`.
///
/// **Saturation.** All arithmetic on instants and strides saturates at the ends of `Int64`
/// nanoseconds instead of wrapping or trapping, as Dispatch's time arithmetic does (Combine's
/// `DispatchQueue.SchedulerTimeType` inherits it): `.seconds(.infinity)` and `.seconds(Int.max)`
/// mean "never", and `now.advanced(by:)` with them is `MonotonicInstant(nanoseconds: .max)`, the
/// end of time, which stays after every real deadline.
public struct MonotonicInstant: Strideable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// An instant `nanoseconds` after the clock's origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The current reading of `CLOCK_MONOTONIC`. Thread-safe.
    public static func now() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    /// The stride from `self` to `other`, saturating.
    public func distance(to other: MonotonicInstant) -> Stride {
        Stride(nanoseconds: other.nanoseconds.subtractingSaturating(nanoseconds))
    }

    /// `self` moved by `n`, saturating at the ends of time (see the type's doc).
    public func advanced(by n: Stride) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds.addingSaturating(n.nanoseconds))
    }

    /// Orders instants by their nanosecond reading.
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The reading in nanoseconds, for logs and test failures.
    public var description: String { "\(nanoseconds)ns" }

    /// A signed span of time in nanoseconds. An integer or float literal means **seconds**, as in
    /// Combine's `DispatchQueue.SchedulerTimeType.Stride`; use `.nanoseconds(_:)`,
    /// `.milliseconds(_:)` and friends for other units. Arithmetic and conversions saturate at
    /// the ends of `Int64` nanoseconds (never wrap, never trap), as Dispatch's do.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
        Codable, Sendable, ExpressibleByFloatLiteral, CustomStringConvertible
    {
        /// The span in nanoseconds (negative for a span backwards).
        public var nanoseconds: Int64

        /// A span of `nanoseconds` ns.
        public init(nanoseconds: Int64) {
            self.nanoseconds = nanoseconds
        }

        /// A span of `seconds` seconds, fractions kept to the nanosecond, saturating: ±infinity
        /// gives the longest span of its sign, and NaN the longest positive span ("never"), as
        /// Dispatch clamps a NaN interval to its largest time.
        public init(seconds: Double) {
            let ns = seconds * 1_000_000_000
            if ns.isNaN || ns >= Double(Int64.max) {
                nanoseconds = .max
            } else if ns <= Double(Int64.min) {
                nanoseconds = .min
            } else {
                nanoseconds = Int64(ns.rounded())
            }
        }

        /// `1` means one second.
        public init(integerLiteral value: Int64) {
            self = .seconds(Int(value))
        }

        /// `0.5` means half a second.
        public init(floatLiteral value: Double) {
            self.init(seconds: value)
        }

        /// An integer `source` read as whole seconds; `nil` if it does not fit in nanoseconds.
        public init?<T: BinaryInteger>(exactly source: T) {
            guard let s = Int64(exactly: source) else { return nil }
            let (ns, overflow) = s.multipliedReportingOverflow(by: 1_000_000_000)
            if overflow { return nil }
            nanoseconds = ns
        }

        /// The span in seconds.
        public var seconds: Double { Double(nanoseconds) / 1_000_000_000 }

        /// The absolute span.
        public var magnitude: Stride {
            Stride(nanoseconds: nanoseconds.magnitude > UInt64(Int64.max) ? .max : Int64(nanoseconds.magnitude))
        }

        /// `s` seconds, saturating.
        public static func seconds(_ s: Int) -> Stride {
            let (ns, overflow) = Int64(s).multipliedReportingOverflow(by: 1_000_000_000)
            return Stride(nanoseconds: overflow ? (s < 0 ? .min : .max) : ns)
        }
        /// `s` seconds, fractions kept, saturating; NaN means "never" (see `init(seconds:)`).
        public static func seconds(_ s: Double) -> Stride { Stride(seconds: s) }
        /// `ms` milliseconds, saturating.
        public static func milliseconds(_ ms: Int) -> Stride {
            let (ns, overflow) = Int64(ms).multipliedReportingOverflow(by: 1_000_000)
            return Stride(nanoseconds: overflow ? (ms < 0 ? .min : .max) : ns)
        }
        /// `us` microseconds, saturating.
        public static func microseconds(_ us: Int) -> Stride {
            let (ns, overflow) = Int64(us).multipliedReportingOverflow(by: 1_000)
            return Stride(nanoseconds: overflow ? (us < 0 ? .min : .max) : ns)
        }
        /// `ns` nanoseconds.
        public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: Int64(ns)) }

        /// Orders spans by length.
        public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
        /// Sum of two spans, saturating.
        public static func + (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: lhs.nanoseconds.addingSaturating(rhs.nanoseconds))
        }
        /// Difference of two spans, saturating.
        public static func - (lhs: Stride, rhs: Stride) -> Stride {
            Stride(nanoseconds: lhs.nanoseconds.subtractingSaturating(rhs.nanoseconds))
        }
        /// Product of the nanosecond counts, as Combine's strides multiply their magnitudes;
        /// saturating.
        public static func * (lhs: Stride, rhs: Stride) -> Stride {
            let (product, overflow) = lhs.nanoseconds.multipliedReportingOverflow(by: rhs.nanoseconds)
            if !overflow { return Stride(nanoseconds: product) }
            return Stride(nanoseconds: (lhs.nanoseconds < 0) == (rhs.nanoseconds < 0) ? .max : .min)
        }
        /// Adds in place.
        public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
        /// Subtracts in place.
        public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
        /// Multiplies in place.
        public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

        /// The span in nanoseconds, for logs and test failures.
        public var description: String { "\(nanoseconds)ns" }
    }
}

extension Int64 {
    /// `self + other`, clamped to `Int64.min...Int64.max`.
    @inline(__always)
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other < 0 ? .min : .max) : sum
    }

    /// `self - other`, clamped to `Int64.min...Int64.max`.
    @inline(__always)
    func subtractingSaturating(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
