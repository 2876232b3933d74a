extension Publishers {
    /// Delivers values and the completion on `scheduler`, as Combine's `Publishers.ReceiveOn`.
    ///
    /// Each value and the completion are handed to `scheduler.schedule(options:_:)` in arrival
    /// order, so on a serial scheduler they arrive in order, the completion last. The
    /// subscription itself is passed on synchronously, and `request`/`cancel` go straight to the
    /// upstream. After `cancel()`, actions already queued on the scheduler deliver nothing.
    /// Demand is respected exactly: extra demand returned by the downstream is requested from
    /// the upstream after each delivery.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are moved.
        public let upstream: Upstream
        /// Where values and the completion are delivered.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?

        /// Moves `upstream`'s events to `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReceiveOnInner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

private final class ReceiveOnInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = OperatorLock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var cancelled = false
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard !cancelled, upstream == nil, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        target.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard lock.withLock({ !cancelled }) else { return .none }
        scheduler.schedule(options: options) { [self] in
            lock.lock()
            guard !cancelled, let target = downstream else { return lock.unlock() }
            lock.unlock()
            let extra = target.receive(input)
            if extra > 0, let upstream = lock.withLock({ self.upstream }) { upstream.request(extra) }
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        // The upstream is done: later requests have nowhere to go.
        lock.lock()
        guard !cancelled else { return lock.unlock() }
        let finished = upstream
        upstream = nil
        lock.unlock()
        withExtendedLifetime(finished) {}
        scheduler.schedule(options: options) { [self] in
            lock.lock()
            guard !cancelled, let target = downstream else { return lock.unlock() }
            cancelled = true
            downstream = nil
            lock.unlock()
            target.receive(completion: completion)
        }
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        lock.lock()
        guard !cancelled else { return lock.unlock() }
        cancelled = true
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
    /// Delivers values and the completion on `scheduler`, as Combine's `receive(on:options:)`.
    /// See `Publishers.ReceiveOn`.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}
