extension Publishers {
    /// Republishes the running accumulation of the values, as Combine's `Publishers.Scan`.
    ///
    /// Each value produces `nextPartialResult(accumulated, value)`, which is published and kept.
    /// The upstream subscription is handed to the subscriber unchanged.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The accumulated publisher.
        public let upstream: Upstream
        /// The starting accumulation (not published by itself).
        public let initialResult: Output
        /// Combines the accumulation with the next value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates the operator.
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Subscribes `subscriber`; each subscription starts from `initialResult`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Inner(downstream: subscriber, initial: initialResult, combine: nextPartialResult))
        }
    }
}

extension Publishers.Scan {
    // `accumulated` changes only in `receive(_:)`, which is serial: no lock.
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        private let combine: (Output, Upstream.Output) -> Output
        private var accumulated: Output

        init(downstream: Downstream, initial: Output, combine: @escaping (Output, Upstream.Output) -> Output) {
            self.downstream = downstream
            self.accumulated = initial
            self.combine = combine
        }

        var description: String { "Scan" }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            accumulated = combine(accumulated, input)
            return downstream.receive(accumulated)
        }
    }
}

extension Publisher {
    /// Publishes the running result of `nextPartialResult`, starting from `initialResult`, as
    /// Combine's `scan(_:_:)`.
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Scan<Self, T> {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
