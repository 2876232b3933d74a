/// A scheduler that runs every action at once, on the calling thread, as Combine's
/// `ImmediateScheduler`: `schedule(after:)` ignores the date and a repeating schedule runs its
/// action once.
///
/// Its time type is `MonotonicInstant` (`now` reads `CLOCK_MONOTONIC`). For code written against
/// `AnySchedulerOf<LoopScheduler>`, use `AnyScheduler.immediate` (ViewModelKitSchedulers).
public struct ImmediateScheduler: Scheduler, EventSourceScheduler, Sendable {
    /// Monotonic nanoseconds.
    public typealias SchedulerTimeType = MonotonicInstant
    /// No options exist (as in Combine, which uses `Never`).
    public typealias SchedulerOptions = Never

    /// The shared instance.
    public static let shared = ImmediateScheduler()

    /// An immediate scheduler (stateless; `shared` is the same).
    public init() {}

    /// The current `CLOCK_MONOTONIC` reading.
    public var now: MonotonicInstant {
        .now()
    }

    /// Zero.
    public var minimumTolerance: MonotonicInstant.Stride {
        .nanoseconds(0)
    }

    /// Runs `action` now.
    public func schedule(options: Never?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` now, whatever `date` says.
    public func schedule(
        after date: MonotonicInstant, tolerance: MonotonicInstant.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs `action` once, now, and returns a token with nothing left to cancel.
    public func schedule(
        after date: MonotonicInstant, interval: MonotonicInstant.Stride, tolerance: MonotonicInstant.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> Cancellable {
        action()
        return AnyCancellable {}
    }

    /// A source delivered synchronously inside `signal()`. A signal raised by the handler itself
    /// is delivered right after the handler returns (no recursion), merged with any others.
    public func scheduleEventSource(
        options: Never?, _ handler: @escaping (ScheduledEventSource<ImmediateScheduler>) -> Void
    ) -> ScheduledEventSource<ImmediateScheduler> {
        ScheduledEventSource(scheduler: self, handler)
    }
}
