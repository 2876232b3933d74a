/// A `Scheduler` (Combine's shape) that runs actions on an `EventLoop`, and an
/// `EventSourceScheduler` whose sources are serviced at the end of the loop's iteration.
///
/// - Time is `MonotonicInstant` (`CLOCK_MONOTONIC`, nanoseconds); a literal stride means seconds.
/// - `schedule` is safe from any thread; every action runs on the loop's thread.
/// - `schedule(options:_:)` runs the action in a later callback, FIFO with `EventLoop.execute`.
/// - Timed actions due at the same instant run in the order they were scheduled (the loop keeps
///   its own deadline queue; libevent's timer heap is not FIFO for equal deadlines). A deadline in
///   the past runs as soon as possible. Actions never run before their deadline.
/// - **Resolution.** Bases made by `EventLoop` use `EVENT_BASE_FLAG_PRECISE_TIMER` (a timerfd on
///   `CLOCK_MONOTONIC`): deadlines are rounded up to the next microsecond and an idle loop wakes
///   typically within tens of microseconds after it. A busy loop runs a due action once the
///   current callbacks are done. An adopted base may use libevent's coarse clock (about 1-4 ms);
///   the loop then re-arms an early wake-up, so actions are late by up to that tick, never early.
/// - Tolerance is ignored (there is no timer coalescing); `minimumTolerance` is 1 µs, the unit
///   libevent's `timeval` can express.
public struct LoopScheduler: Scheduler, EventSourceScheduler, Sendable {
    /// Monotonic nanoseconds; see `MonotonicInstant`.
    public typealias SchedulerTimeType = MonotonicInstant

    /// Options for `LoopScheduler` (and `TestScheduler`, which shares them so both erase to the
    /// same `AnyScheduler`).
    public struct SchedulerOptions: Hashable, Sendable {
        /// For `scheduleEventSource`: the flush rank. Sources with a lower rank are serviced first
        /// at the end of an iteration; equal ranks in creation order. Ignored by `schedule`.
        public var flushOrder: Int

        /// Options with the given flush rank (default 0).
        public init(flushOrder: Int = 0) {
            self.flushOrder = flushOrder
        }
    }

    /// The loop actions run on.
    public let loop: EventLoop

    /// A scheduler for `loop`.
    public init(loop: EventLoop) {
        self.loop = loop
    }

    /// The scheduler of `EventLoop.main`. The first use of `EventLoop.main` must be on the main
    /// thread; after that this may be read from any thread.
    public static var main: LoopScheduler {
        LoopScheduler(loop: .main)
    }

    /// The current `CLOCK_MONOTONIC` reading (the clock the loop's timers use). Any thread.
    public var now: MonotonicInstant {
        .now()
    }

    /// 1 µs, the granularity of libevent's timers.
    public var minimumTolerance: MonotonicInstant.Stride {
        .microseconds(1)
    }

    /// Runs `action` on the loop's thread in a later callback (FIFO with `EventLoop.execute`).
    /// Any thread; wakes the loop. `options` are ignored.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        loop.enqueue(action)
    }

    /// Runs `action` once on the loop's thread, no earlier than `date`. Same-instant actions run
    /// in scheduling order. Any thread. `tolerance` and `options` are ignored.
    public func schedule(
        after date: MonotonicInstant, tolerance: MonotonicInstant.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        guard loop.timers.add(deadline: date, interval: nil, action: action) != nil else {
            preconditionFailure("LoopScheduler.schedule(after:) on an EventLoop after its shutdown()")
        }
    }

    /// Runs `action` at `date` and then every `interval` (at least 1 ns) on the loop's thread,
    /// keeping the original phase and skipping ticks missed while the loop was busy. Cancel the
    /// returned token (or drop it: it is an `AnyCancellable`) to stop. Any thread; cancelling
    /// never waits for the loop: no tick starts after `cancel()` returns, and one already running
    /// on the loop's thread finishes.
    public func schedule(
        after date: MonotonicInstant, interval: MonotonicInstant.Stride,
        tolerance: MonotonicInstant.Stride, options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> Cancellable {
        guard let entry = loop.timers.add(deadline: date, interval: max(interval, .nanoseconds(1)), action: action)
        else {
            preconditionFailure("LoopScheduler.schedule(after:interval:) on an EventLoop after its shutdown()")
        }
        // Capture the loop, not just its queue: the queue's libevent event lives in the loop's base.
        return AnyCancellable { [loop] in loop.timers.cancel(entry) }
    }

    /// A coalescing source serviced by the loop's end-of-iteration flush, ranked by
    /// `options?.flushOrder` (default 0). See `LoopEventSource` for the guarantees. Any thread.
    public func scheduleEventSource(
        options: SchedulerOptions?, _ handler: @escaping (LoopEventSource) -> Void
    ) -> LoopEventSource {
        loop.makeEventSource(order: options?.flushOrder ?? 0, handler)
    }

    /// `scheduleEventSource(options:_:)` for a target called directly in each pass instead of a
    /// handler (see `LoopEventSource.init(loop:order:target:)`).
    package func scheduleEventSource(options: SchedulerOptions?, target: any LoopFlushTarget) -> LoopEventSource {
        loop.makeEventSource(order: options?.flushOrder ?? 0, target: target)
    }
}

/// Carries a non-`Sendable` action to the thread that runs it; the scheduler's contract (actions
/// run on one thread, as in Combine) is what makes the hop safe.
struct UncheckedAction: @unchecked Sendable {
    let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
    }
}
