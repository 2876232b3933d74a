extension Publishers {
    /// Publishes the last value that satisfies a predicate, once upstream finishes, as
    /// Combine's `Publishers.LastWhere`.
    ///
    /// Asks upstream for `.unlimited` and keeps the latest match; on `.finished` it goes out once
    /// the subscriber has demand, followed by `.finished` (only `.finished` if nothing matched).
    /// A failure passes on at once.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The searched publisher.
        public let upstream: Upstream
        /// The test, called on the delivering thread for every value.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(matchCore(subscriber, name: "LastWhere", stopAtFirst: false, predicate))
        }
    }

    /// `LastWhere` with a predicate that may throw, as Combine's `Publishers.TryLastWhere`: a
    /// thrown error cancels upstream and fails the stream at once; an upstream failure is passed
    /// on as `any Error`.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = Error

        /// The searched publisher.
        public let upstream: Upstream
        /// The test; may throw.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(throwingMatchCore(subscriber, name: "TryLastWhere", stopAtFirst: false, predicate))
        }
    }
}

extension Publisher {
    /// Publishes the last value satisfying `predicate` when upstream finishes, as Combine's
    /// `last(where:)`.
    public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }

    /// `last(where:)` with a predicate that may throw, as Combine's `tryLast(where:)`.
    public func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}
