extension Publishers {
    /// Folds every value into one result, published when upstream finishes, as Combine's
    /// `Publishers.Reduce`.
    ///
    /// Asks upstream for `.unlimited` at subscription; each value replaces the accumulation with
    /// `nextPartialResult(accumulation, value)`, starting from `initial`. When upstream finishes,
    /// the result (`initial` if nothing arrived) is published once the subscriber has demand,
    /// followed by `.finished`. A failure passes on at once and the accumulation is dropped.
    /// The closure runs on the thread that delivers the value.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The folded publisher.
        public let upstream: Upstream
        /// The accumulation before the first value.
        public let initial: Output
        /// Combines the accumulation with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates the operator.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber`; each subscription starts from `initial`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let combine = nextPartialResult
            upstream.subscribe(
                ReduceCore<Upstream.Output, Output, Failure, S>(
                    downstream: subscriber, name: "Reduce", initial: initial,
                    accumulate: { result, value in
                        result = combine(result, value)
                        return false
                    },
                    output: { $0 }))
        }
    }

    /// Folds every value with a throwing closure, as Combine's `Publishers.TryReduce`.
    ///
    /// As `Reduce`; when `nextPartialResult` throws, upstream is cancelled and the subscriber
    /// gets `.failure(error)` at once. An upstream failure is passed on as `any Error`.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `nextPartialResult`.
        public typealias Failure = Error

        /// The folded publisher.
        public let upstream: Upstream
        /// The accumulation before the first value.
        public let initial: Output
        /// Combines the accumulation with the next value; may throw to fail the stream.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates the operator.
        public init(
            upstream: Upstream, initial: Output, nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber`; each subscription starts from `initial`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let combine = nextPartialResult
            upstream.subscribe(
                ReduceCore<Upstream.Output, Output, Upstream.Failure, S>(
                    throwingTo: subscriber, name: "TryReduce", initial: initial,
                    accumulate: { result, value in
                        result = try combine(result, value)
                        return false
                    },
                    output: { $0 }))
        }
    }
}

extension Publisher {
    /// Folds all values into one result, published when upstream finishes, as Combine's
    /// `reduce(_:_:)`. See `Publishers.Reduce`.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Reduce<Self, T>
    {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }

    /// Folds all values with a throwing closure; a thrown error fails the stream, as Combine's
    /// `tryReduce(_:_:)`. See `Publishers.TryReduce`.
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}
