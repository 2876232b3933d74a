extension Publishers {
    /// Connects a connectable publisher when the first subscriber arrives and disconnects when
    /// the last one cancels or completes, as Combine's `Publishers.Autoconnect`.
    ///
    /// A subscriber is attached before `connect()` is called, so it sees the first values. A
    /// subscriber arriving after a disconnect connects again. Thread-safe.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher being connected.
        public let upstream: Upstream

        private let lock = Lock()
        private var connection: Cancellable?
        private var connecting = false
        private var subscribers = 0

        /// Wraps `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` and connects if it is the only one.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            lock.withLock { subscribers += 1 }
            upstream.subscribe(AutoconnectInner(downstream: subscriber, parent: self))
            let shouldConnect = lock.withLock { () -> Bool in
                guard subscribers > 0, connection == nil, !connecting else { return false }
                connecting = true
                return true
            }
            guard shouldConnect else { return }
            let made = upstream.connect()
            let unneeded = lock.withLock { () -> Cancellable? in
                connecting = false
                if subscribers == 0 { return made }
                connection = made
                return nil
            }
            unneeded?.cancel()
        }

        /// One subscriber left (cancelled or completed); disconnects after the last.
        fileprivate func release() {
            let ended = lock.withLock { () -> Cancellable? in
                subscribers -= 1
                guard subscribers == 0 else { return nil }
                defer { connection = nil }
                return connection
            }
            ended?.cancel()
        }
    }
}

/// Passes events through and tells the `Autoconnect` when its subscriber is gone.
private final class AutoconnectInner<Upstream: ConnectablePublisher, Downstream: Subscriber>: Subscriber,
    Subscription, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private var downstream: Downstream?
    private var upstream: Subscription?
    private var parent: Publishers.Autoconnect<Upstream>?

    init(downstream: Downstream, parent: Publishers.Autoconnect<Upstream>) {
        self.downstream = downstream
        self.parent = parent
    }

    func receive(subscription: Subscription) {
        lock.lock()
        guard upstream == nil, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        target.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard let target = lock.withLock({ downstream }) else { return .none }
        return target.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let (target, _, owner) = detach()
        target?.receive(completion: completion)
        owner?.release()
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        let (target, subscription, owner) = detach()
        subscription?.cancel()
        withExtendedLifetime(target) {}
        owner?.release()
    }

    /// Ends this subscriber's stay: takes out everything it holds, to be dealt with unlocked.
    private func detach() -> (Downstream?, Subscription?, Publishers.Autoconnect<Upstream>?) {
        lock.lock()
        defer {
            downstream = nil
            upstream = nil
            parent = nil
            lock.unlock()
        }
        return (downstream, upstream, parent)
    }
}

extension ConnectablePublisher {
    /// Connects on the first subscriber and disconnects when the last one leaves, as Combine's
    /// `autoconnect()`. See `Publishers.Autoconnect`.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
