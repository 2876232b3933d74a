extension Publishers {
    /// Transforms values with a throwing closure and republishes the non-nil results, as
    /// Combine's `Publishers.TryCompactMap`.
    ///
    /// A `nil` result asks upstream for one more; when `transform` throws, upstream is cancelled
    /// and the subscriber gets `.failure(error)`. An upstream failure is passed on as
    /// `any Error`. Demand otherwise passes straight through.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// Any error: the upstream's or one thrown by `transform`.
        public typealias Failure = Error

        /// The transformed publisher.
        public let upstream: Upstream
        /// The transformation, called once per value on the delivering thread.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates the operator.
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Subscribes `subscriber` through the transformation.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                StepRelay<Upstream.Output, Upstream.Failure, S>(throwingTo: subscriber, name: "TryCompactMap") {
                    value in
                    try transform(value).map { .emit($0) } ?? .skip
                })
        }
    }
}

extension Publisher {
    /// Republishes the non-nil results of a throwing transformation, as Combine's
    /// `tryCompactMap(_:)`.
    public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}
