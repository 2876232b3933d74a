extension Publishers {
    /// Republishes the values of the most recent inner publisher, as Combine's
    /// `Publishers.SwitchToLatest`.
    ///
    /// The upstream (a publisher of publishers) is asked for unlimited values. Each new inner
    /// publisher cancels the previous one (values it had buffered are dropped) and receives the
    /// downstream's demand. Finishes when the upstream and the current inner publisher have
    /// finished; the first failure of either ends the stream. Downstream calls are serial even
    /// when inner publishers send on different threads.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where Upstream.Output == P, P.Failure == Upstream.Failure {
        /// The inner publishers' output.
        public typealias Output = P.Output
        /// The common failure type.
        public typealias Failure = P.Failure

        /// The publisher of publishers.
        public let upstream: Upstream

        /// Switches to the latest publisher `upstream` sends.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, sourcesOpen: true, kind: .switchToLatest)
            upstream.subscribe(SwitchOuter<P, S>(core: core))
        }
    }
}

/// The subscriber `SwitchToLatest` attaches to its upstream.
private struct SwitchOuter<P: Publisher, Downstream: Subscriber>: Subscriber
where Downstream.Input == P.Output, Downstream.Failure == P.Failure {
    typealias Input = P
    typealias Failure = P.Failure

    let core: MergeCore<Downstream>
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: Subscription) {
        guard core.setOuter(subscription) else { return }  // a second one: cancelled
        core.sendSubscription()
        subscription.request(.unlimited)
    }

    func receive(_ input: P) -> Subscribers.Demand {
        // Before the subscription or after the completion: a violation, dropped.
        guard core.outerIsAttached, let id = core.replaceChildren() else { return .none }
        input.subscribe(core.child(id))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: core.outerFinished()
        case .failure(let error): core.outerFailed(error)
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Flattens a publisher of publishers, keeping only the newest inner one, as Combine's
    /// `switchToLatest()`. See `Publishers.SwitchToLatest`.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// `switchToLatest()` when only the inner publishers can fail, as Combine's overload of the
    /// same shape.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: setFailureType(to: Output.Failure.self))
    }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
    /// `switchToLatest()` when nothing can fail, as Combine's overload of the same shape.
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// `switchToLatest()` when only the outer publisher can fail: inner publishers take its
    /// failure type, as Combine's overload of the same shape.
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        Publishers.SwitchToLatest(upstream: map { $0.setFailureType(to: Failure.self) })
    }
}
