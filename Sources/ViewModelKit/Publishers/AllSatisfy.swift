extension Publishers {
    /// Publishes whether every value satisfies a predicate, as Combine's
    /// `Publishers.AllSatisfy`: `false` as soon as one does not (upstream is then cancelled),
    /// `true` when upstream finishes (an empty upstream included).
    ///
    /// Asks upstream for `.unlimited`; the answer goes out once the subscriber has demand,
    /// followed by `.finished`. A failure passes on at once.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether all values satisfied the predicate.
        public typealias Output = Bool
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The tested publisher.
        public let upstream: Upstream
        /// The test, called on the delivering thread until it first returns false.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(searchCore(subscriber, name: "AllSatisfy", untilValueIs: false, predicate))
        }
    }

    /// `AllSatisfy` with a predicate that may throw, as Combine's `Publishers.TryAllSatisfy`: a
    /// thrown error cancels upstream and fails the stream at once; an upstream failure is passed
    /// on as `any Error`.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// Whether all values satisfied the predicate.
        public typealias Output = Bool
        /// Any error: the upstream's or one thrown by the predicate.
        public typealias Failure = Error

        /// The tested publisher.
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
            upstream.subscribe(throwingSearchCore(subscriber, name: "TryAllSatisfy", untilValueIs: false, predicate))
        }
    }
}

extension Publisher {
    /// Publishes whether every value satisfies `predicate` (false at once on the first that
    /// does not), as Combine's `allSatisfy(_:)`.
    public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }

    /// `allSatisfy(_:)` with a predicate that may throw, as Combine's `tryAllSatisfy(_:)`.
    public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool) -> Publishers.TryAllSatisfy<Self> {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
