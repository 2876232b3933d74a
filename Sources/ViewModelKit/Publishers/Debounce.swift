extension Publishers {
    /// Publishes a value only after `dueTime` has passed without a newer one, as Combine's
    /// `Publishers.Debounce`.
    ///
    /// The upstream is asked for unlimited values. Each value replaces the pending one and
    /// schedules its emission on `scheduler` at `scheduler.now + dueTime`; an older schedule
    /// that fires after being replaced does nothing. Values are delivered on the scheduler and
    /// dropped if the downstream has no demand at that moment. When the upstream completes, the
    /// pending value is dropped and the completion is delivered through
    /// `scheduler.schedule(options:_:)`. After `cancel()` nothing more is delivered.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being debounced.
        public let upstream: Upstream
        /// The quiet time a value must survive, in the scheduler's stride units.
        public let dueTime: Context.SchedulerTimeType.Stride
        /// Where the timing and the delivery happen.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?

        /// Debounces `upstream` by `dueTime` on `scheduler`.
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                DebounceInner(downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
        }
    }
}

private final class DebounceInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = OperatorLock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var demand = Subscribers.Demand.none
    private var pending: Input?
    private var generation = 0
    // No more upstream events (completed or cancelled).
    private var upstreamDone = false
    // Nothing more goes downstream.
    private var terminated = false
    private let dueTime: Context.SchedulerTimeType.Stride
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
         options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.dueTime = dueTime
        self.scheduler = scheduler
        self.options = options
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
        lock.lock()
        guard !upstreamDone else {
            lock.unlock()
            return .none
        }
        generation += 1
        let tag = generation
        let replaced = pending
        pending = input
        lock.unlock()
        withExtendedLifetime(replaced) {}
        let due = scheduler.now.advanced(by: dueTime)
        scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options) { [self] in
            fire(tag)
        }
        return .none
    }

    private func fire(_ tag: Int) {
        lock.lock()
        guard !terminated, tag == generation, let value = pending, let target = downstream else {
            return lock.unlock()
        }
        pending = nil
        guard demand > 0 else {
            lock.unlock()
            return
        }
        demand -= 1
        lock.unlock()
        let extra = target.receive(value)
        lock.withLock { demand += extra }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !upstreamDone else { return lock.unlock() }
        upstreamDone = true
        generation += 1
        let dropped = pending
        pending = nil
        let finished = upstream
        upstream = nil
        lock.unlock()
        withExtendedLifetime((dropped, finished)) {}
        scheduler.schedule(options: options) { [self] in
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
        let target = downstream
        let subscription = upstream
        let dropped = pending
        downstream = nil
        upstream = nil
        pending = nil
        lock.unlock()
        subscription?.cancel()
        withExtendedLifetime((target, dropped)) {}
    }
}

extension Publisher {
    /// Publishes a value only once `dueTime` has passed without another, as Combine's
    /// `debounce(for:scheduler:options:)`. See `Publishers.Debounce`.
    public func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}
