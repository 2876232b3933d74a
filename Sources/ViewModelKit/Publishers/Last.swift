extension Publishers {
    /// Publishes the last value once upstream finishes, as Combine's `Publishers.Last`.
    ///
    /// Asks upstream for `.unlimited`, keeps the latest value and, when upstream finishes,
    /// publishes it (once the subscriber has demand) followed by `.finished`. If upstream
    /// finishes empty, only `.finished` is sent. Failures pass on at once.
    public struct Last<Upstream: Publisher>: Publisher {
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
            upstream.subscribe(ReduceCore(keepingValuesOf: subscriber, name: "Last", stopAtFirst: false))
        }
    }
}

extension Publisher {
    /// Publishes the last value when upstream finishes, as Combine's `last()`.
    public func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}
