extension Publishers {
    /// Transforms every value and republishes the non-nil results, as Combine's
    /// `Publishers.CompactMap`.
    ///
    /// The upstream subscription is handed to the subscriber unchanged; each `nil` result asks
    /// upstream for one more value.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation; `nil` drops the value. Called on the delivering thread.
        public let transform: (Upstream.Output) -> Output?

        /// Creates the operator.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transformation.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.CompactMap {
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let downstream: Downstream
        private let transform: (Upstream.Output) -> Output?

        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.downstream = downstream
            self.transform = transform
        }

        var description: String { "CompactMap" }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let output = transform(input) else { return .max(1) }
            return downstream.receive(output)
        }
    }
}

extension Publisher {
    /// Republishes the non-nil results of `transform`, as Combine's `compactMap(_:)`.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}
