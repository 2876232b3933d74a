extension Publishers {
    /// Collects every value into one array, published when upstream finishes, as Combine's
    /// `Publishers.Collect`.
    ///
    /// Asks upstream for `.unlimited`; when upstream finishes it publishes the array (possibly
    /// empty) once the subscriber has demand, then `.finished`. A failure is passed on at once
    /// and the collected values are discarded.
    public struct Collect<Upstream: Publisher>: Publisher {
        /// All the upstream values, in order.
        public typealias Output = [Upstream.Output]
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
            upstream.subscribe(
                ReduceCore<Upstream.Output, [Upstream.Output], Failure, S>(
                    downstream: subscriber, name: "Collect", initial: [],
                    accumulate: { result, value in
                        result.append(value)
                        return false
                    },
                    output: { $0 }))
        }
    }
}

extension Publisher {
    /// Collects all values into an array published when upstream finishes, as Combine's
    /// `collect()`.
    public func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}
