extension Publishers {
    /// Publishes the first value, then finishes, as Combine's `Publishers.First`.
    ///
    /// Asks upstream for `.unlimited`; on the first value it cancels upstream and publishes that
    /// value (once the subscriber has demand) followed by `.finished`. If upstream finishes
    /// empty, only `.finished` is sent. Failures pass on at once.
    public struct First<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream

        /// Creates the operator.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(ReduceCore(keepingValuesOf: subscriber, name: "First", stopAtFirst: true))
        }
    }
}

extension Publisher {
    /// Publishes the first value and finishes, as Combine's `first()`.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}
