extension Publishers {
    /// Ignores every value and republishes only the completion, as Combine's
    /// `Publishers.IgnoreOutput`.
    ///
    /// It asks upstream for `.unlimited` values as soon as it is subscribed (no value ever needs
    /// downstream demand); cancelling the subscription cancels upstream.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// Never: no value is ever published.
        public typealias Output = Never
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream

        /// Creates the operator.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber`; it gets only the completion.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput {
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Never, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        var description: String { "IgnoreOutput" }

        func receive(subscription: Subscription) {
            downstream.receive(subscription: subscription)
            subscription.request(.unlimited)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            .none
        }
    }
}

extension Publisher {
    /// Ignores all values and passes on the completion, as Combine's `ignoreOutput()`.
    public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
