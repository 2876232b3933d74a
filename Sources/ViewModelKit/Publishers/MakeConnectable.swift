extension Publishers {
    /// Turns a publisher that cannot fail into a `ConnectablePublisher`, as Combine's
    /// `Publishers.MakeConnectable`: a `multicast` through a `PassthroughSubject`.
    ///
    /// Subscribers attach at any time; values flow only after `connect()` and only to
    /// subscribers with demand (the subject's rules). Cancelling the connection cancels the
    /// upstream subscription.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        private let inner: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Wraps `upstream`.
        public init(upstream: Upstream) {
            inner = Multicast(upstream: upstream, createSubject: { PassthroughSubject() })
        }

        /// Attaches `subscriber` to the shared subject.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            inner.subscribe(subscriber)
        }

        /// Subscribes the subject to the upstream; cancel the token to disconnect.
        public func connect() -> Cancellable {
            inner.connect()
        }
    }
}

extension Publisher where Failure == Never {
    /// Makes this publisher connectable, as Combine's `makeConnectable()`.
    /// See `Publishers.MakeConnectable`.
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}
