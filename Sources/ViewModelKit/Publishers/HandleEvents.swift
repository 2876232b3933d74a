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
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        /// Guarded by `lock`; dropped at completion or cancel, after which no hook runs. Only
        /// the closures: the upstream publisher is not kept (as Combine's), so a publisher whose
        /// owner lets it go can end its subscribers itself.
        private var handlers: Hooks?

        init(downstream: Downstream, handlers: Publishers.HandleEvents<Upstream>) {
            self.handlers = Hooks(handlers)
            super.init(downstream: downstream, name: "HandleEvents")
        }

        private var currentHandlers: Hooks? {
            lock.withLock { handlers }
        }

        override func receive(subscription: Subscription) {
            guard attach(subscription) else { return }
            currentHandlers?.receiveSubscription?(subscription)
            downstream?.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard isLive else { return .none }
            let hooks = currentHandlers
            hooks?.receiveOutput?(input)
            let more = downstream?.receive(input) ?? .none
            if more > 0 { hooks?.receiveRequest?(more) }
            return more
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let (hooks, source) = takeHandlersAndUpstream()
            guard source != nil else { return }
            hooks?.receiveCompletion?(completion)
            complete(completion)
        }

        override func request(_ demand: Subscribers.Demand) {
            currentHandlers?.receiveRequest?(demand)
            super.request(demand)
        }

        override func cancel() {
            releaseDownstream()
            let (hooks, source) = takeHandlersAndUpstream()
            guard let source else { return }
            hooks?.receiveCancel?()
            source.cancel()
        }

        /// Ends the relay in one step, so that completion and cancel never both run their hook.
        private func takeHandlersAndUpstream() -> (hooks: Hooks?, Subscription?) {
            lock.withLock {
                defer {
                    handlers = nil
                    upstream = nil
                    relayClosed = true
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
