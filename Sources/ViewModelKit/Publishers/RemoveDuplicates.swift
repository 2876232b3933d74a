extension Publishers {
    /// Republishes a value only if it differs from the previous one, as Combine's
    /// `Publishers.RemoveDuplicates`.
    ///
    /// The first value always passes. Each value is compared with the last *received* value
    /// (dropped ones included, as Combine). As Combine's, it has a subscription of its own: a
    /// second subscription is cancelled, and nothing passes before the subscription or after the
    /// completion or a cancel. Demand passes straight through; each dropped duplicate asks
    /// upstream for one more value.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose duplicates are removed.
        public let upstream: Upstream
        /// Returns true when the second value duplicates the first (previous, current).
        public let predicate: (Output, Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Subscribes `subscriber` through the comparison.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // `receive(subscriber:)` rather than `subscribe(_:)`: a client's optimiser stops
            // specialising a chain in which the same generic function (`subscribe`) recurs with
            // ever larger subscriber types, and the whole value path then runs unspecialised.
            upstream.receive(subscriber: Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.RemoveDuplicates {
    // A subscription of its own, as Combine's: the gate (`SubscriptionGate`) keeps the state
    // machine, out of the inlinable surface, and is what the downstream holds (it keeps the
    // downstream, as Combine's subscription does); this subscriber is held by the upstream only,
    // so the predicate and last value go with it when the upstream lets it go (after its
    // completion, or once the gate cancelled it). `last` is
    // touched only from `receive(_:)`, which the upstream never calls concurrently: no lock.
    @usableFromInline
    final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias Failure = Upstream.Failure

        @usableFromInline let gate: SubscriptionGate
        @usableFromInline let downstream: Downstream
        @usableFromInline let predicate: (Output, Output) -> Bool
        // Serial delivery already rules out overlapping access; the dynamic exclusivity check on
        // this field cost more than the comparison it guards.
        @usableFromInline @exclusivity(unchecked) var last: Output?

        @inlinable
        init(downstream: Downstream, predicate: @escaping (Output, Output) -> Bool) {
            self.gate = SubscriptionGate(name: "RemoveDuplicates")
            self.downstream = downstream
            self.predicate = predicate
        }

        @usableFromInline var description: String { "RemoveDuplicates" }

        /// Keeps the first subscription and hands the gate downstream; cancels any other.
        @inlinable
        func receive(subscription: Subscription) {
            guard gate.open(subscription, keeping: downstream) else { return }
            downstream.receive(subscription: gate)
        }

        @inlinable @inline(__always)
        func receive(_ input: Output) -> Subscribers.Demand {
            // Before the subscription or after the end: dropped (Combine traps before it).
            guard gate.isOpen else { return .none }
            if let previous = last, predicate(previous, input) {
                last = input
                return .max(1)
            }
            last = input
            return downstream.receive(input)
        }

        /// Passes the completion on once, only while the subscription is live.
        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            guard gate.close() else { return }
            downstream.receive(completion: completion)
        }
    }
}

extension Publisher where Output: Equatable {
    /// Drops a value equal to the previous one, as Combine's `removeDuplicates()`. Inlinable, so
    /// that `==` is the client's specialised one rather than a generic witness call per value.
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Drops a value when `predicate(previous, current)` is true, as Combine's
    /// `removeDuplicates(by:)`.
    @inlinable
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}
