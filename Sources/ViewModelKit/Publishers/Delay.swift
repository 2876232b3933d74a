extension Publishers {
    /// Shifts every value and the completion later by `interval`, as Combine's
    /// `Publishers.Delay`.
    ///
    /// Each event is scheduled on `scheduler` at `scheduler.now + interval` (read when the event
    /// arrives), so spacing and order are kept on a time-ordered scheduler. Demand passes
    /// straight through to the upstream; extra demand returned by the downstream is requested
    /// after each delivery. After `cancel()` scheduled events deliver nothing.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being delayed.
        public let upstream: Upstream
        /// The delay, in the scheduler's stride units.
        public let interval: Context.SchedulerTimeType.Stride
        /// The tolerance passed to the scheduler.
        public let tolerance: Context.SchedulerTimeType.Stride
        /// Where the delayed events are delivered.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?

        /// Delays `upstream`'s events by `interval` on `scheduler`.
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
            tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(DelayInner(downstream: subscriber, publisher: self))
        }
    }
}

private final class DelayInner<Upstream: Publisher, Context: Scheduler, Downstream: Subscriber>: Subscriber,
    Subscription, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = OperatorLock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var terminated = false
    private let publisher: Publishers.Delay<Upstream, Context>

    init(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
        self.downstream = downstream
        self.publisher = publisher
    }

    private func later(_ action: @escaping () -> Void) {
        let scheduler = publisher.scheduler
        scheduler.schedule(
            after: scheduler.now.advanced(by: publisher.interval), tolerance: publisher.tolerance,
            options: publisher.options, action)
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
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        later { [self] in
            guard let target = lock.withLock({ terminated ? nil : downstream }) else { return }
            let extra = target.receive(input)
            if extra > 0, let subscription = lock.withLock({ upstream }) { subscription.request(extra) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        // The upstream is done: later requests have nowhere to go.
        let finished = lock.withLock { () -> Subscription? in
            defer { upstream = nil }
            return upstream
        }
        withExtendedLifetime(finished) {}
        later { [self] in
            lock.lock()
            guard !terminated, let target = downstream else { return lock.unlock() }
            terminated = true
            downstream = nil
            lock.unlock()
            target.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { terminated ? nil : upstream }?.request(demand)
    }

    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        terminated = true
        let target = downstream
        let subscription = upstream
        downstream = nil
        upstream = nil
        lock.unlock()
        subscription?.cancel()
        withExtendedLifetime(target) {}
    }
}

extension Publisher {
    /// Delivers every value and the completion `interval` later on `scheduler`, as Combine's
    /// `delay(for:tolerance:scheduler:options:)`. A `nil` tolerance means the scheduler's
    /// `minimumTolerance`. See `Publishers.Delay`.
    public func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
        scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}
