extension Publishers {
    /// Calls closures on every publishing event, as Combine's `Publishers.HandleEvents`.
    ///
    /// Each closure runs just before the event is passed on: `receiveSubscription` before the
    /// subscriber gets the subscription, `receiveOutput` before each value, `receiveCompletion`
    /// before the completion, `receiveCancel` before upstream is cancelled, `receiveRequest`
    /// before a demand goes upstream. Each runs on the thread of its event.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// Called with the upstream subscription.
        public var receiveSubscription: ((Subscription) -> Void)?
        /// Called with each value.
        public var receiveOutput: ((Upstream.Output) -> Void)?
        /// Called with the completion.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        /// Called when the subscriber cancels.
        public var receiveCancel: (() -> Void)?
        /// Called with each demand the subscriber requests.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates the operator.
        public init(
            upstream: Upstream,
            receiveSubscription: ((Subscription) -> Void)? = nil,
            receiveOutput: ((Upstream.Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Subscribes `subscriber`, observing every event.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, handlers: self))
        }
    }
}

extension Publishers.HandleEvents {
    /// The subscription of `handleEvents`, with Combine's recorded protocol edges (OpenCombine's
    /// `HandleEventsTests`, run against Combine): it polices almost nothing, so every event
    /// reaches the downstream, whose own guard is what absorbs junk, and the hooks run until the
    /// stream ends.
    /// - Each subscription runs `receiveSubscription` while the hooks live; the first is kept and
    ///   handed on, any other (and any after the end) is cancelled.
    /// - Values and completions are passed on always: before the subscription, after the
    ///   completion, after a cancel. `receiveOutput` (and `receiveRequest` for the demand the
    ///   downstream returns) runs only while the hooks live; the first completion runs
    ///   `receiveCompletion` and ends the hooks, as a cancel ends them after `receiveCancel`.
    /// - `request` runs `receiveRequest` while the hooks live and reaches the upstream while it
    ///   is kept; demand asked before the subscription is requested when it arrives.
    /// - The downstream is kept for the subscription's whole life, as Combine keeps it.
    /// Thread rules: state under `lock`; nothing is called out while it is held.
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, OperatorIntrospection, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let lock = Lock()
        private let downstream: Downstream
        /// Guarded by `lock`; dropped at the first completion or the cancel, after which no hook
        /// runs. Only the closures: the upstream publisher is not kept (as Combine's), so a
        /// publisher whose owner lets it go can end its subscribers itself.
        private var handlers: Hooks?
        /// Guarded by `lock`; the kept upstream subscription, nil before it and after the end.
        private var upstream: Subscription?
        /// Guarded by `lock`; set at the end (completion or cancel): a subscription is cancelled.
        private var closed = false
        /// Guarded by `lock`; demand asked before the subscription arrived.
        private var pendingDemand = Subscribers.Demand.none

        init(downstream: Downstream, handlers: Publishers.HandleEvents<Upstream>) {
            self.downstream = downstream
            self.handlers = Hooks(handlers)
        }

        var description: String { "HandleEvents" }

        func receive(subscription: Subscription) {
            lock.lock()
            let hooks = handlers
            lock.unlock()
            hooks?.receiveSubscription?(subscription)
            lock.lock()
            guard upstream == nil, !closed else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            let pending = pendingDemand
            pendingDemand = .none
            lock.unlock()
            downstream.receive(subscription: self)
            if pending > .none { subscription.request(pending) }
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            let hooks = handlers
            lock.unlock()
            hooks?.receiveOutput?(input)
            let more = downstream.receive(input)
            if more > .none { hooks?.receiveRequest?(more) }
            return more
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let hooks = end()
            hooks.handlers?.receiveCompletion?(completion)
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let hooks = handlers
            let source = upstream
            if source == nil, !closed { pendingDemand += demand }
            lock.unlock()
            hooks?.receiveRequest?(demand)
            source?.request(demand)
        }

        func cancel() {
            let ended = end()
            ended.handlers?.receiveCancel?()
            ended.upstream?.cancel()
        }

        /// Ends the stream in one step (hooks, upstream), so that completion and cancel never
        /// both run their hook; returns what it took.
        private func end() -> (handlers: Hooks?, upstream: Subscription?) {
            lock.withLock {
                defer {
                    handlers = nil
                    upstream = nil
                    closed = true
                }
                return (handlers, upstream)
            }
        }
    }
}

extension Publishers.HandleEvents {
    /// The closures of a `HandleEvents`, without its upstream publisher.
    struct Hooks {
        let receiveSubscription: ((Subscription) -> Void)?
        let receiveOutput: ((Upstream.Output) -> Void)?
        let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?
        let receiveCancel: (() -> Void)?
        let receiveRequest: ((Subscribers.Demand) -> Void)?

        init(_ operator: Publishers.HandleEvents<Upstream>) {
            receiveSubscription = `operator`.receiveSubscription
            receiveOutput = `operator`.receiveOutput
            receiveCompletion = `operator`.receiveCompletion
            receiveCancel = `operator`.receiveCancel
            receiveRequest = `operator`.receiveRequest
        }
    }
}

extension Publisher {
    /// Calls the given closures on publishing events, as Combine's `handleEvents(...)`.
    public func handleEvents(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
            receiveRequest: receiveRequest)
    }
}
