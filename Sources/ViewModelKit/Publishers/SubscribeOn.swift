extension Publishers {
    /// Performs `subscribe`, `request` and `cancel` on `scheduler`, as Combine's
    /// `Publishers.SubscribeOn`.
    ///
    /// The upstream's `subscribe` runs inside `scheduler.schedule(options:_:)`; so do later
    /// requests and the upstream cancel. Values and the completion are passed on from whatever
    /// thread the upstream sends them on (combine with `receive(on:)` to move those). After
    /// `cancel()` nothing more is delivered, even before the scheduled upstream cancel has run.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher subscribed on `scheduler`.
        public let upstream: Upstream
        /// Where subscribe, request and cancel run.
        public let scheduler: Context
        /// Passed to every `schedule` call.
        public let options: Context.SchedulerOptions?

        /// Subscribes to `upstream` on `scheduler`.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber`; the upstream subscription happens later, on the scheduler.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = SubscribeOnInner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) {
                upstream.subscribe(inner)
            }
        }
    }
}

private final class SubscribeOnInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
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
        guard let target = lock.withLock({ cancelled ? nil : downstream }) else { return .none }
        return target.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !cancelled, let target = downstream else { return lock.unlock() }
        cancelled = true
        downstream = nil
        let finished = upstream
        upstream = nil
        lock.unlock()
        withExtendedLifetime(finished) {}
        target.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        guard let subscription = lock.withLock({ cancelled ? nil : upstream }) else { return }
        scheduler.schedule(options: options) {
            subscription.request(demand)
        }
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
        withExtendedLifetime(target) {}
        guard let subscription else { return }
        scheduler.schedule(options: options) {
            subscription.cancel()
        }
    }
}

extension Publisher {
    /// Subscribes, requests and cancels on `scheduler`, as Combine's `subscribe(on:options:)`.
    /// See `Publishers.SubscribeOn`.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}
