extension Publishers {
    /// Publishes at most one value per `interval`, as Combine's `Publishers.Throttle`.
    ///
    /// The upstream is asked for unlimited values. A value that arrives when no emission happened
    /// in the last `interval` is delivered at once (through `scheduler.schedule`). Values arriving
    /// inside the interval are held: the first of them (`latest == false`) or the newest
    /// (`latest == true`) is delivered when the interval since the last emission ends, and that
    /// starts a new interval. Everything is delivered on the scheduler; a value meeting zero
    /// downstream demand is dropped. The completion is delivered through `scheduler.schedule`;
    /// if a value is being held, it is delivered at the end of its interval and the completion
    /// right after it (unlike `debounce`, which drops its pending value).
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being throttled.
        public let upstream: Upstream
        /// The minimum spacing between emissions, in the scheduler's stride units.
        public let interval: Context.SchedulerTimeType.Stride
        /// Where the timing and the delivery happen.
        public let scheduler: Context
        /// Emit the newest held value (`true`) or the first one (`false`).
        public let latest: Bool

        /// Throttles `upstream` to one value per `interval` on `scheduler`.
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ThrottleInner(downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
        }
    }
}

/// `ScheduledRelay` on the local demand route that spaces emissions at least `interval` apart,
/// holding one value (the first or the newest) per interval.
private final class ThrottleInner<Downstream: Subscriber, Context: Scheduler>: ScheduledRelay<Downstream, Context>,
    @unchecked Sendable
{
    private let interval: Context.SchedulerTimeType.Stride
    private let latest: Bool
    private var lastEmission: Context.SchedulerTimeType?
    private var held: Input?
    private var flushScheduled = false
    private var pendingCompletion: Subscribers.Completion<Failure>?

    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
        self.interval = interval
        self.latest = latest
        super.init(downstream: downstream, scheduler: scheduler, options: nil, demand: .local)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        let now = scheduler.now
        lock.lock()
        guard !upstreamDone else {
            lock.unlock()
            return .none
        }
        if flushScheduled {
            var replaced: Input?
            if latest {
                replaced = held
                held = input
            }
            lock.unlock()
            withExtendedLifetime(replaced) {}
            return .none
        }
        if let last = lastEmission, now < last.advanced(by: interval) {
            held = input
            flushScheduled = true
            let flushTime = last.advanced(by: interval)
            lock.unlock()
            scheduler.schedule(after: flushTime, tolerance: scheduler.minimumTolerance, options: nil) { [self] in
                flush()
            }
        } else {
            lastEmission = now
            lock.unlock()
            schedule { [self] in deliver(input) }
        }
        return .none
    }

    private func flush() {
        let now = scheduler.now
        lock.lock()
        guard flushScheduled, let value = held else { return lock.unlock() }
        flushScheduled = false
        held = nil
        lastEmission = now
        let completion = pendingCompletion
        pendingCompletion = nil
        lock.unlock()
        deliver(value)
        if let completion { finish(completion) }
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        // A held value goes first, at the end of its interval; the completion follows it.
        let followsHeldValue = lock.withLock { () -> Bool in
            if flushScheduled { pendingCompletion = completion }
            return flushScheduled
        }
        if followsHeldValue {
            upstreamCompleted()
        } else {
            super.receive(completion: completion)
        }
    }

    override func cancel() {
        let dropped = lock.withLock { () -> Input? in
            flushScheduled = false
            defer { held = nil }
            return held
        }
        super.cancel()
        withExtendedLifetime(dropped) {}
    }
}

extension Publisher {
    /// Publishes at most one value per `interval`: the first or the newest of each burst, as
    /// Combine's `throttle(for:scheduler:latest:)`. See `Publishers.Throttle`.
    public func throttle<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
    ) -> Publishers.Throttle<Self, S> {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}
