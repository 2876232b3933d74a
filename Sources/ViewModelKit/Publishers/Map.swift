extension Publishers {
    /// Transforms every value with a closure, as Combine's `Publishers.Map`.
    ///
    /// The upstream subscription is handed to the subscriber unchanged, so demand, cancellation
    /// and threads are exactly the upstream's; the completion passes through.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation, called once per value on the delivering thread.
        public let transform: (Upstream.Output) -> Output

        /// Creates the operator.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transformation.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // `receive(subscriber:)` rather than `subscribe(_:)`: a client's optimiser stops
            // specialising a chain in which the same generic function (`subscribe`) recurs with
            // ever larger subscriber types, and the whole value path then runs unspecialised.
            upstream.receive(subscriber: Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    /// Maps values in place; holds no state, so it takes no lock.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @usableFromInline var description: String { "Map" }

        @inlinable @inline(__always)
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(transform(input))
        }
    }
}

extension Publisher {
    /// Transforms every value with `transform`, as Combine's `map(_:)`.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}
