extension Publishers {
    /// Publishes, for each upstream value, the time elapsed since the previous one (the first:
    /// since the subscription), measured with a scheduler's clock, as Combine's
    /// `Publishers.MeasureInterval`.
    ///
    /// The values themselves are not republished. Times are read from `scheduler.now` on the
    /// delivering thread; nothing is scheduled. Demand and completion pass straight through.
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
    // `last` is written by `receive(subscription:)` and then only by the serial `receive(_:)`.
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        private let scheduler: Context
        private var last: Context.SchedulerTimeType?

        init(downstream: Downstream, scheduler: Context) {
            self.downstream = downstream
            self.scheduler = scheduler
        }

        var description: String { "MeasureInterval" }

        func receive(subscription: Subscription) {
            last = scheduler.now
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let now = scheduler.now
            let elapsed = (last ?? now).distance(to: now)
            last = now
            return downstream.receive(elapsed)
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
