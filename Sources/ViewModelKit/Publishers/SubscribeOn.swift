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

/// `ScheduledRelay` with synchronous delivery, and `request` / `cancel` moved to the scheduler.
private final class SubscribeOnInner<Downstream: Subscriber, Context: Scheduler>: ScheduledRelay<Downstream, Context>,
    @unchecked Sendable
{
    override var description: String { "SubscribeOn" }

    override func receive(_ input: Input) -> Subscribers.Demand {
        // Before the subscription or after the end: dropped.
        guard lock.withLock({ !upstreamDone }) else { return .none }
        return liveDownstream?.receive(input) ?? .none
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        guard upstreamCompleted() else { return }
        finish(completion)
    }

    override func request(_ demand: Subscribers.Demand) {
        guard let subscription = lock.withLock({ upstream }) else { return }
        schedule { subscription.request(demand) }
    }

    override func cancelUpstream(_ subscription: Subscription) {
        schedule { subscription.cancel() }
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
