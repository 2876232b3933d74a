/// A stride type whose values can be built from common time units, as Combine's
/// `SchedulerTimeIntervalConvertible`.
public protocol SchedulerTimeIntervalConvertible {
    /// A stride of `s` whole seconds.
    static func seconds(_ s: Int) -> Self
    /// A stride of `s` seconds, fractions allowed.
    static func seconds(_ s: Double) -> Self
    /// A stride of `ms` milliseconds.
    static func milliseconds(_ ms: Int) -> Self
    /// A stride of `us` microseconds.
    static func microseconds(_ us: Int) -> Self
    /// A stride of `ns` nanoseconds.
    static func nanoseconds(_ ns: Int) -> Self
}

/// Defines when and how to run a closure, with Combine's exact requirements.
///
/// Every scheduler in this project documents its thread rules: which threads may call `schedule`
/// and on which thread the action runs. Actions are not `@Sendable` (as in Combine); a scheduler
/// that hops threads takes responsibility for the hop.
public protocol Scheduler<SchedulerTimeType> {
    /// The scheduler's notion of time: a point that can be advanced by a `Stride`.
    associatedtype SchedulerTimeType: Strideable
    where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible
    /// Per-call options (for example a priority); each scheduler documents its own.
    associatedtype SchedulerOptions

    /// The scheduler's current time.
    var now: SchedulerTimeType { get }
    /// The smallest tolerance this scheduler honours.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Runs `action` as soon as possible.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Runs `action` once, no earlier than `date`, within `tolerance` where the scheduler allows.
    func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void)

    /// Runs `action` at `date` and then every `interval` until the returned token is cancelled.
    func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable
}

extension Scheduler {
    /// Runs `action` as soon as possible, with no options.
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Runs `action` once at `date` within `tolerance`, with no options.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Runs `action` once at `date` with the scheduler's `minimumTolerance`.
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, options: nil, action)
    }

    /// Repeats `action` every `interval` from `date`, with no options; cancel the token to stop.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Repeats `action` every `interval` from `date` with `minimumTolerance`; cancel to stop.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
    }
}
