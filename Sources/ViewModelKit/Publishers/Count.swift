extension Publishers {
    /// Publishes how many values upstream sent, once it finishes, as Combine's
    /// `Publishers.Count`.
    ///
    /// Asks upstream for `.unlimited`; on `.finished` publishes the count (0 for an empty
    /// upstream) once the subscriber has demand, then `.finished`. A failure passes on at once.
    public struct Count<Upstream: Publisher>: Publisher {
        /// The number of values.
        public typealias Output = Int
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The counted publisher.
        public let upstream: Upstream

        /// Creates the operator.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ReduceCore<Upstream.Output, Int, Failure, S>(
                    downstream: subscriber, name: "Count", initial: 0,
                    accumulate: { count, _ in
                        count += 1
                        return false
                    },
                    output: { $0 }))
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the number of values upstream sent, when it finishes, as Combine's `count()`.
    public func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}
