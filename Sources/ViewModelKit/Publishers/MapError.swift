extension Publishers {
    /// Converts the upstream failure with a closure, as Combine's `Publishers.MapError`.
    /// Values, demand and `.finished` pass through unchanged.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output

        /// The upstream publisher.
        public let upstream: Upstream
        /// Converts the upstream error; called at most once.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates the operator.
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Creates the operator (Combine's spelling with a leading unnamed closure).
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
        }

        /// Subscribes `subscriber` through the error conversion.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.MapError {
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        private let transform: (Upstream.Failure) -> Downstream.Failure

        init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Downstream.Failure) {
            self.downstream = downstream
            self.transform = transform
        }

        var description: String { "MapError" }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished: downstream.receive(completion: .finished)
            case .failure(let error): downstream.receive(completion: .failure(transform(error)))
            }
        }
    }
}

extension Publisher {
    /// Converts any failure with `transform`, as Combine's `mapError(_:)`.
    public func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}
