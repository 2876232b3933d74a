extension Publishers {
    /// Shares one upstream subscription among all subscribers, as Combine's `Publishers.Share`
    /// (a `multicast` through a `PassthroughSubject`, auto-connected).
    ///
    /// The first subscriber connects; the upstream is cancelled when the last subscriber leaves,
    /// and a later subscriber connects again. Values are not replayed: a subscriber sees only
    /// what is sent after it attached, and only within its own demand. Equality is identity.
    public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The shared publisher.
        public let upstream: Upstream
        private let shared: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Shares `upstream`.
        public init(upstream: Upstream) {
            self.upstream = upstream
            shared = Multicast(upstream: upstream, createSubject: { PassthroughSubject() }).autoconnect()
        }

        /// Attaches `subscriber` to the shared stream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            shared.subscribe(subscriber)
        }

        /// True if both are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publisher {
    /// Shares one subscription to this publisher among all subscribers, as Combine's `share()`.
    /// See `Publishers.Share`.
    public func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}
