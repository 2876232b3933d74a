extension Publishers {
    /// Republishes a value only if a throwing predicate says it differs from the previous one, as
    /// Combine's `Publishers.TryRemoveDuplicates`.
    ///
    /// The first value always passes; each later value is compared with the one before it
    /// (passed or not, as `removeDuplicates`), and a duplicate asks upstream for one more. When
    /// `predicate` throws, upstream is cancelled and the subscriber gets `.failure(error)`. An
    /// upstream failure is passed on as `any Error`.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by `predicate`.
        public typealias Failure = Error

        /// The filtered publisher.
        public let upstream: Upstream
        /// Returns true when the second value duplicates the first; may throw.
        public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isDuplicate = predicate
            var previous: Output?
            upstream.subscribe(
                StepRelay<Output, Upstream.Failure, S>(throwingTo: subscriber, name: "TryRemoveDuplicates") { value in
                    defer { previous = value }
                    if let previous, try isDuplicate(previous, value) { return .skip }
                    return .emit(value)
                })
        }
    }
}

extension Publisher {
    /// Drops values that `predicate` says duplicate the previous one; a thrown error fails the
    /// stream, as Combine's `tryRemoveDuplicates(by:)`.
    public func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
