import Dispatch
import Foundation

/// `OperationQueue` as a `Scheduler`, as Combine's conformance: each action is added to the
/// queue as an operation and runs wherever the queue runs its operations (one at a time only if
/// `maxConcurrentOperationCount` is 1).
///
/// Timed actions wait on a dispatch timer against the wall clock, then are added to the queue.
/// `schedule` may be called from any thread.
extension OperationQueue: ViewModelKit.Scheduler {
    /// A `Date` instant, as Combine's `OperationQueue.SchedulerTimeType`.
    public typealias SchedulerTimeType = DateSchedulerTime

    /// No options, as Combine's `OperationQueue.SchedulerOptions`.
    public struct SchedulerOptions: Sendable {}

    /// `Date()`.
    public var now: SchedulerTimeType { DateSchedulerTime(Date()) }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to the queue now.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = UncheckedAction(action)
        addOperation { work.action() }
    }

    /// Adds `action` to the queue at `date` (at once if `date` has passed).
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = UncheckedAction(action)
        let queue = UncheckedQueue(self)
        DispatchQueue.global().asyncAfter(wallDeadline: Self.deadline(date)) {
            queue.queue.addOperation { work.action() }
        }
    }

    /// Adds `action` to the queue at `date` and every `interval` after, until the token is
    /// cancelled.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        let work = UncheckedAction(action)
        let queue = UncheckedQueue(self)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { queue.queue.addOperation { work.action() } }
        // NaN (a `.seconds(.nan)` stride) means "never", as Dispatch clamps it; nothing traps.
        let repeating = interval.magnitude.isNaN ? .infinity : Swift.max(interval.magnitude, 0)
        let leewayNanoseconds = (tolerance.magnitude * 1_000_000_000).rounded(.up)
        let leeway =
            leewayNanoseconds.isNaN || leewayNanoseconds >= Double(Int.max)
            ? Int.max : leewayNanoseconds <= 0 ? 0 : Int(leewayNanoseconds)
        timer.schedule(wallDeadline: Self.deadline(date), repeating: repeating, leeway: .nanoseconds(leeway))
        timer.activate()
        return AnyCancellable { timer.cancel() }
    }

    /// `date` as a dispatch wall-clock deadline.
    private static func deadline(_ date: SchedulerTimeType) -> DispatchWallTime {
        let delay = date.date.timeIntervalSinceNow
        if delay.isNaN || delay == .infinity { return .distantFuture }
        return .now() + Swift.max(delay, 0)
    }
}

/// `OperationQueue` is thread-safe but not annotated `Sendable`.
private struct UncheckedQueue: @unchecked Sendable {
    let queue: OperationQueue
    init(_ queue: OperationQueue) { self.queue = queue }
}
