extension Publishers {
    /// Publishes at most one value per `interval`, as Combine's `Publishers.Throttle`.
    ///
    /// The upstream is asked for unlimited values. A value that arrives when no emission happened
    /// in the last `interval` is delivered at once (through `scheduler.schedule`). Values arriving
    /// inside the interval are held: the first of them (`latest == false`) or the newest
    /// (`latest == true`) is delivered when the interval since the last emission ends, and that
    /// starts a new interval. Everything is delivered on the scheduler; a value meeting zero
    /// downstream demand is dropped. On completion a held value is dropped and the completion is
    /// delivered through `scheduler.schedule` (the same rule as `debounce`).
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

private final class ThrottleInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = OperatorLock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var demand = Subscribers.Demand.none
    private var lastEmission: Context.SchedulerTimeType?
    private var held: Input?
    private var flushScheduled = false
    private var upstreamDone = false
    private var terminated = false
    private let interval: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let latest: Bool

    init(downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
        self.downstream = downstream
        self.interval = interval
        self.scheduler = scheduler
        self.latest = latest
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard !terminated, upstream == nil, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        target.receive(subscription: self)
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
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
            scheduler.schedule(options: nil) { [self] in
                emit(input)
            }
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
        lock.unlock()
        emit(value)
    }

    private func emit(_ value: Input) {
        lock.lock()
        guard !terminated, demand > 0, let target = downstream else { return lock.unlock() }
        demand -= 1
        lock.unlock()
        let extra = target.receive(value)
        lock.withLock { demand += extra }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !upstreamDone else { return lock.unlock() }
        upstreamDone = true
        flushScheduled = false
        let dropped = held
        held = nil
        let finished = upstream
        upstream = nil
        lock.unlock()
        withExtendedLifetime((dropped, finished)) {}
        scheduler.schedule(options: nil) { [self] in
            lock.lock()
            guard !terminated, let target = downstream else { return lock.unlock() }
            terminated = true
            downstream = nil
            lock.unlock()
            target.receive(completion: completion)
        }
    }

    func request(_ more: Subscribers.Demand) {
        lock.withLock { demand += more }
    }

    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        terminated = true
        upstreamDone = true
        flushScheduled = false
        let target = downstream
        let subscription = upstream
        let dropped = held
        downstream = nil
        upstream = nil
        held = nil
        lock.unlock()
        subscription?.cancel()
        withExtendedLifetime((target, dropped)) {}
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
