extension Publishers {
    /// Publishes `true` as soon as upstream sends a given value, or `false` when it finishes
    /// without one, as Combine's `Publishers.Contains`.
    ///
    /// Asks upstream for `.unlimited`; on a match upstream is cancelled. The answer goes out once
    /// the subscriber has demand, followed by `.finished`. A failure passes on at once.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// Whether the value was seen.
        public typealias Output = Bool
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The searched publisher.
        public let upstream: Upstream
        /// The value searched for.
        public let output: Upstream.Output

        /// Creates the operator.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let wanted = output
            upstream.subscribe(searchCore(subscriber, name: "Contains", untilValueIs: true) { $0 == wanted })
        }
    }

    /// Publishes `true` as soon as a value satisfies a predicate, or `false` when upstream
    /// finishes without one, as Combine's `Publishers.ContainsWhere`. Demand and cancellation as
    /// `Contains`.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a value satisfied the predicate.
        public typealias Output = Bool
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
            upstream.subscribe(searchCore(subscriber, name: "ContainsWhere", untilValueIs: true, predicate))
        }
    }

    /// `ContainsWhere` with a predicate that may throw, as Combine's
    /// `Publishers.TryContainsWhere`: a thrown error cancels upstream and fails the stream at
    /// once; an upstream failure is passed on as `any Error`.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// Whether a value satisfied the predicate.
        public typealias Output = Bool
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
            upstream.subscribe(throwingSearchCore(subscriber, name: "TryContainsWhere", untilValueIs: true, predicate))
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

/// The `ReduceCore` of a boolean search (`contains`, `allSatisfy`): starts from `!stopAnswer`;
/// the first value whose `test` gives `stopAnswer` makes that the final answer.
func searchCore<Input, Failure: Error, S: Subscriber>(
    _ subscriber: S, name: String, untilValueIs stopAnswer: Bool, _ test: @escaping (Input) -> Bool
) -> ReduceCore<Input, Bool, Failure, S> where S.Input == Bool, S.Failure == Failure {
    ReduceCore(
        downstream: subscriber, name: name, initial: !stopAnswer,
        accumulate: { answer, value in
            guard test(value) == stopAnswer else { return false }
            answer = stopAnswer
            return true
        },
        output: { $0 })
}

/// `searchCore` for a throwing test (the `try` forms).
func throwingSearchCore<Input, Failure: Error, S: Subscriber>(
    _ subscriber: S, name: String, untilValueIs stopAnswer: Bool, _ test: @escaping (Input) throws -> Bool
) -> ReduceCore<Input, Bool, Failure, S> where S.Input == Bool, S.Failure == any Error {
    ReduceCore(
        throwingTo: subscriber, name: name, initial: !stopAnswer,
        accumulate: { answer, value in
            guard try test(value) == stopAnswer else { return false }
            answer = stopAnswer
            return true
        },
        output: { $0 })
}

extension Publisher where Output: Equatable {
    /// Publishes whether upstream sends `output` (true at once on the first match), as
    /// Combine's `contains(_:)`.
    public func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}

extension Publisher {
    /// Publishes whether any value satisfies `predicate` (true at once on the first), as
    /// Combine's `contains(where:)`.
    public func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }

    /// `contains(where:)` with a predicate that may throw, as Combine's `tryContains(where:)`.
    public func tryContains(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryContainsWhere<Self> {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}
