extension Publishers {
    /// Republishes values until a second publisher sends its first value, then finishes, as
    /// Combine's `Publishers.PrefixUntilOutput`.
    ///
    /// In Combine's order, the subscriber gets its subscription, then `other` is subscribed and
    /// asked for one value, then upstream (demand asked for earlier is passed on then); so an
    /// `other` that sends at once finishes the stream before any upstream value. Its first value
    /// cancels both publishers and finishes the stream; its completion (either kind) is ignored
    /// and values keep passing. Demand passes straight to upstream. Upstream and `other` may
    /// deliver on different threads; the subscriber's calls are serialised.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The republished publisher.
        public let upstream: Upstream
        /// The publisher whose first value ends the stream.
        public let other: Other

        /// Creates the operator.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Hands `subscriber` its subscription, then subscribes `other`, then upstream (Combine's order).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UntilOutputRelay(downstream: subscriber, name: "PrefixUntilOutput", mode: .prefix)
            relay.start(upstream: upstream, trigger: other) { _ in nil }
        }
    }
}

extension Publisher {
    /// Republishes values until `publisher` sends a value, then finishes, as Combine's
    /// `prefix(untilOutputFrom:)`.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
