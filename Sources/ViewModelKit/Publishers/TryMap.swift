extension Publishers {
    /// Transforms every value with a throwing closure, as Combine's `Publishers.TryMap`.
    ///
    /// When `transform` throws, the upstream is cancelled and the subscriber gets
    /// `.failure(error)`; anything upstream still sends afterwards is ignored. An upstream
    /// failure is passed on as `any Error`. Demand passes straight through.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `transform`.
        public typealias Failure = Error

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation, called once per value on the delivering thread.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates the operator.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transformation.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Error {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.TryMap {
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Error {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let transform: (Upstream.Output) throws -> Output
        // Touched only by the serial receive calls.
        private var finished = false

        init(downstream: Downstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.transform = transform
            super.init(downstream: downstream, name: "TryMap")
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            // Before the subscription, after the end or once the subscriber cancelled: dropped.
            if finished || !isLive { return .none }
            do {
                return downstream?.receive(try transform(input)) ?? .none
            } catch {
                finished = true
                takeUpstream()?.cancel()
                complete(.failure(error))
                return .none
            }
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if finished || !admitsCompletion() { return }
            finished = true
            switch completion {
            case .finished: forward(.finished)
            case .failure(let error): forward(.failure(error))
            }
        }
    }
}

extension Publisher {
    /// Transforms every value with a throwing closure; a thrown error fails the stream, as
    /// Combine's `tryMap(_:)`.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}
