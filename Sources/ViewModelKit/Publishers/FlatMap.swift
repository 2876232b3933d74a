extension Publishers {
    /// Turns each upstream value into a publisher and merges their values, as Combine's
    /// `Publishers.FlatMap`.
    ///
    /// At most `maxPublishers` inner publishers are subscribed at once: the upstream is asked for
    /// that many values and for one more each time an inner publisher finishes. Inner values are
    /// merged as in `Publishers.MergeMany` (arrival order, within downstream demand, serial
    /// delivery). Finishes when the upstream and every inner publisher have finished; the first
    /// failure, upstream or inner, ends the stream at once. `transform` runs on the upstream's
    /// thread, outside any lock.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The inner publishers' output.
        public typealias Output = NewPublisher.Output
        /// The common failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The most inner publishers subscribed at once.
        public let maxPublishers: Subscribers.Demand
        /// Builds an inner publisher from an upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Flat-maps `upstream` with `transform`, at most `maxPublishers` at a time.
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Attaches `subscriber`.
        ///
        /// Inlinable, with the outer subscriber, so that a client built without flags runs the
        /// per-value path (`transform`, the test for `Just`) specialised for its own types; the
        /// merge engine it hands values to stays out of line (see docs/DESIGN-NOTES.md).
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(
                downstream: subscriber, sourcesOpen: true, replenishOuter: maxPublishers != .unlimited, kind: .flatMap)
            // `receive(subscriber:)`, not `subscribe(_:)`: see `Publishers.Map`.
            upstream.receive(
                subscriber: FlatMapOuter(
                    core: core, maxPublishers: maxPublishers, transform: transform,
                    innerIsJust: NewPublisher.self == Just<Output>.self,
                    innerIsFailingJust: NewPublisher.self == SetFailureType<Just<Output>, Failure>.self))
        }
    }
}

/// The subscriber `FlatMap` attaches to its upstream.
@usableFromInline
struct FlatMapOuter<Input, NewPublisher: Publisher, Downstream: Subscriber>: Subscriber
where Downstream.Input == NewPublisher.Output, Downstream.Failure == NewPublisher.Failure {
    @usableFromInline typealias Failure = NewPublisher.Failure

    @usableFromInline let core: MergeCore<Downstream>
    @usableFromInline let maxPublishers: Subscribers.Demand
    @usableFromInline let transform: (Input) -> NewPublisher
    /// `NewPublisher` is `Just`: decided once per subscription, since a dynamic cast per value
    /// cost more than the rest of the value's trip. Constant once specialised.
    @usableFromInline let innerIsJust: Bool
    /// `NewPublisher` is `Just` given the upstream's failure type (`SetFailureType<Just>`, what
    /// `flatMap { Just($0) }` builds on an upstream that can fail): handled as `Just`.
    @usableFromInline let innerIsFailingJust: Bool
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(
        core: MergeCore<Downstream>, maxPublishers: Subscribers.Demand,
        transform: @escaping (Input) -> NewPublisher, innerIsJust: Bool, innerIsFailingJust: Bool
    ) {
        self.core = core
        self.maxPublishers = maxPublishers
        self.transform = transform
        self.innerIsJust = innerIsJust
        self.innerIsFailingJust = innerIsFailingJust
    }

    @inlinable
    func receive(subscription: Subscription) {
        guard core.setOuter(subscription) else { return }  // a second one: cancelled
        core.sendSubscription()
        if maxPublishers > 0 { subscription.request(maxPublishers) }
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        // Before the subscription or after the completion: a violation, dropped untransformed.
        guard core.outerIsAttached else { return .none }
        let inner = transform(input)
        // `Just` while downstream demand is outstanding: its value and completion are handled
        // inline, exactly as subscribing it would deliver them, without building a subscriber
        // and a subscription per value. The cast is free once specialised (unspecialised, it
        // asked the runtime for `Just<Output>`'s metadata per value).
        if innerIsJust, core.deliverInline(unsafeBitCast(inner, to: Just<NewPublisher.Output>.self).output) {
            return .none
        }
        if innerIsFailingJust,
            core.deliverInline(
                unsafeBitCast(inner, to: Publishers.SetFailureType<Just<NewPublisher.Output>, Failure>.self).upstream
                    .output)
        {
            return .none
        }
        guard let id = core.addChild() else { return .none }
        inner.subscribe(core.child(id))
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: core.outerFinished()
        case .failure(let error): core.outerFailed(error)
        }
    }
}

extension Publisher {
    /// Maps each value to a publisher and merges their outputs, at most `maxPublishers` at a
    /// time, as Combine's `flatMap(maxPublishers:_:)`. See `Publishers.FlatMap`.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher where Failure == Never {
    /// `flatMap` of a publisher that cannot fail into publishers that can: the upstream takes the
    /// inner failure type, as Combine's overload of the same shape.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMap(
            upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
    }

    /// `flatMap` where neither side can fail, as Combine's overload of the same shape.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}

extension Publisher {
    /// `flatMap` into publishers that cannot fail: each inner publisher takes the upstream's
    /// failure type, as Combine's overload of the same shape.
    public func flatMap<P: Publisher>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            transform($0).setFailureType(to: Failure.self)
        }
    }
}
