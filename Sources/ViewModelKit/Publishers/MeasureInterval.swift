extension Publishers {
    /// Publishes, for each upstream value, the time elapsed since the previous one (the first:
    /// since the subscription), measured with a scheduler's clock, as Combine's
    /// `Publishers.MeasureInterval`.
    ///
    /// The values themselves are not republished. Times are read from `scheduler.now` on the
    /// delivering thread (and at subscription); nothing is scheduled. As Combine, the demand the
    /// subscriber returns from `receive(_:)` is passed upstream as a request, its requests pass
    /// straight through, and nothing reaches it after it cancelled.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The time between values, in the scheduler's stride.
        public typealias Output = Context.SchedulerTimeType.Stride
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The measured publisher.
        public let upstream: Upstream
        /// The scheduler whose clock measures.
        public let scheduler: Context

        /// Creates the operator.
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Subscribes `subscriber`; the clock starts when upstream's subscription arrives.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

extension Publishers.MeasureInterval {
    // `last` is written when the subscription arrives and then only by the serial `receive(_:)`.
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let scheduler: Context
        private var last: Context.SchedulerTimeType?

        init(downstream: Downstream, scheduler: Context) {
            self.scheduler = scheduler
            super.init(downstream: downstream, name: "MeasureInterval")
        }

        override func receive(subscription: Subscription) {
            guard attach(subscription) else { return }
            last = scheduler.now
            downstream?.receive(subscription: self)
        }

        /// As Combine: nothing reaches the subscriber once it cancelled, and the demand it
        /// returns is passed upstream as a request (this returns `.none`).
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let source = lock.withLock({ upstream }) else { return .none }
            let now = scheduler.now
            let elapsed = (last ?? now).distance(to: now)
            last = now
            let more = downstream?.receive(elapsed) ?? .none
            if more > 0 { source.request(more) }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            guard takeUpstream() != nil else { return }
            complete(completion)
        }
    }
}

extension Publisher {
    /// Publishes the time between values (the first: since subscription) on `scheduler`'s
    /// clock, as Combine's `measureInterval(using:options:)`. `options` are accepted for
    /// Combine's signature; nothing is scheduled, so they are unused.
    public func measureInterval<S: Scheduler>(
        using scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.MeasureInterval<Self, S> {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}
