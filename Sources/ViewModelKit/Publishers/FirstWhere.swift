extension Publishers {
    /// Publishes the first value that satisfies a predicate, then finishes, as Combine's
    /// `Publishers.FirstWhere`.
    ///
    /// Asks upstream for `.unlimited`; on the first match upstream is cancelled and the value
    /// goes out once the subscriber has demand, followed by `.finished`. If upstream finishes
    /// with no match, only `.finished` is sent. A failure passes on at once.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The searched publisher.
        public let upstream: Upstream
        /// The test, called on the delivering thread until it first returns true.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(matchCore(subscriber, name: "TryFirst", stopAtFirst: true, predicate))
        }
    }

    /// `FirstWhere` with a predicate that may throw, as Combine's `Publishers.TryFirstWhere`: a
    /// thrown error cancels upstream and fails the stream at once; an upstream failure is passed
    /// on as `any Error`.
    public struct TryFirstWhere<Upstream: Publisher>: Publisher {
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
            upstream.subscribe(throwingMatchCore(subscriber, name: "TryFirstWhere", stopAtFirst: true, predicate))
        }
    }
}

/// The `ReduceCore` of `first(where:)` (`stopAtFirst`: the first match is final) and
/// `last(where:)` (each match replaces the previous one until upstream finishes).
func matchCore<Input, Failure: Error, S: Subscriber>(
    _ subscriber: S, name: String, stopAtFirst: Bool, _ test: @escaping (Input) -> Bool
) -> ReduceCore<Input, Input?, Failure, S> where S.Input == Input, S.Failure == Failure {
    ReduceCore(
        downstream: subscriber, name: name, initial: nil,
        accumulate: { kept, value in
            guard test(value) else { return false }
            kept = value
            return stopAtFirst
        },
        output: { $0 })
}

/// `matchCore` for a throwing test (the `try` forms).
func throwingMatchCore<Input, Failure: Error, S: Subscriber>(
    _ subscriber: S, name: String, stopAtFirst: Bool, _ test: @escaping (Input) throws -> Bool
) -> ReduceCore<Input, Input?, Failure, S> where S.Input == Input, S.Failure == any Error {
    ReduceCore(
        throwingTo: subscriber, name: name, initial: nil,
        accumulate: { kept, value in
            guard try test(value) else { return false }
            kept = value
            return stopAtFirst
        },
        output: { $0 })
}

extension Publisher {
    /// Publishes the first value satisfying `predicate` and finishes, as Combine's
    /// `first(where:)`.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }

    /// `first(where:)` with a predicate that may throw, as Combine's `tryFirst(where:)`.
    public func tryFirst(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryFirstWhere<Self> {
        Publishers.TryFirstWhere(upstream: self, predicate: predicate)
    }
}
