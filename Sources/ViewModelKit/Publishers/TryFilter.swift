extension Publishers {
    /// Republishes the values a throwing predicate accepts, as Combine's `Publishers.TryFilter`.
    ///
    /// A rejected value asks upstream for one more; when `isIncluded` throws, upstream is
    /// cancelled and the subscriber gets `.failure(error)`. An upstream failure is passed on as
    /// `any Error`. Demand otherwise passes straight through; the predicate runs on the
    /// delivering thread.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `isIncluded`.
        public typealias Failure = Error

        /// The filtered publisher.
        public let upstream: Upstream
        /// Returns true to republish a value; may throw to fail the stream.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` through the predicate.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isIncluded = self.isIncluded
            upstream.subscribe(
                StepRelay<Output, Upstream.Failure, S>(throwingTo: subscriber, name: "TryFilter") { value in
                    try isIncluded(value) ? .emit(value) : .skip
                })
        }
    }
}

extension Publisher {
    /// Republishes the values `isIncluded` accepts; a thrown error fails the stream, as
    /// Combine's `tryFilter(_:)`.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}
