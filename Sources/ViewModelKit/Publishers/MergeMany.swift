extension Publishers {
    /// Interleaves the values of any number of publishers of one type, as Combine's
    /// `Publishers.MergeMany`.
    ///
    /// Same rules as `Publishers.Merge`: arrival order, within demand, finishes after all
    /// upstreams finish (at once if there are none), fails as soon as one fails.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The upstreams' output.
        public typealias Output = Upstream.Output
        /// The upstreams' failure.
        public typealias Failure = Upstream.Failure

        /// The merged publishers, in subscription order.
        public let publishers: [Upstream]

        /// Merges the given publishers.
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Merges the publishers of a sequence.
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Attaches `subscriber`; each subscriber subscribes to every upstream, in order.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(subscriber, publishers.map { $0.subscribe })
        }

        /// A `MergeMany` with `other` appended, as Combine's `MergeMany.merge(with:)`.
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}
