extension Publishers {
    /// Republishes only the values a predicate accepts, as Combine's `Publishers.Filter`.
    ///
    /// The upstream subscription is handed to the subscriber unchanged; each rejected value asks
    /// upstream for one more, so the subscriber's demand counts only values it receives.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The filtered publisher.
        public let upstream: Upstream
        /// Returns true to republish a value; called on the delivering thread.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Subscribes `subscriber` through the predicate.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // `receive(subscriber:)` rather than `subscribe(_:)`: a client's optimiser stops
            // specialising a chain in which the same generic function (`subscribe`) recurs with
            // ever larger subscriber types, and the whole value path then runs unspecialised.
            upstream.receive(subscriber: Inner(downstream: subscriber, isIncluded: isIncluded))
        }
    }
}

extension Publishers.Filter {
    @usableFromInline
    final class Inner<Downstream: Subscriber>: PassThroughSubscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let downstream: Downstream
        @usableFromInline let isIncluded: (Upstream.Output) -> Bool

        @inlinable
        init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.downstream = downstream
            self.isIncluded = isIncluded
        }

        @usableFromInline var description: String { "Filter" }

        @inlinable @inline(__always)
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            isIncluded(input) ? downstream.receive(input) : .max(1)
        }
    }
}

extension Publisher {
    /// Republishes only values for which `isIncluded` returns true, as Combine's `filter(_:)`.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}
