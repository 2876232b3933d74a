extension Publishers {
    /// Republishes the running accumulation computed by a throwing closure, as Combine's
    /// `Publishers.TryScan`.
    ///
    /// Each value produces `try nextPartialResult(accumulated, value)`, which is published and
    /// kept; when the closure throws, upstream is cancelled and the subscriber gets
    /// `.failure(error)`. An upstream failure is passed on as `any Error`. Demand passes straight
    /// through; each subscription starts from `initialResult`.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `nextPartialResult`.
        public typealias Failure = Error

        /// The accumulated publisher.
        public let upstream: Upstream
        /// The starting accumulation (not published by itself).
        public let initialResult: Output
        /// Combines the accumulation with the next value; may throw.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates the operator.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let combine = nextPartialResult
            var accumulated = initialResult
            upstream.subscribe(
                StepRelay<Upstream.Output, Upstream.Failure, S>(throwingTo: subscriber, name: "TryScan") { value in
                    accumulated = try combine(accumulated, value)
                    return .emit(accumulated)
                })
        }
    }
}

extension Publisher {
    /// Publishes the running result of a throwing `nextPartialResult`, starting from
    /// `initialResult`; a thrown error fails the stream, as Combine's `tryScan(_:_:)`.
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
