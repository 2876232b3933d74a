extension Publishers {
    /// Omits values until a second publisher sends its first value, then republishes all, as
    /// Combine's `Publishers.DropUntilOutput`.
    ///
    /// `other` is subscribed once the subscriber has its subscription and asked for one value;
    /// that value cancels it. Each omitted upstream value asks upstream for one more, so the
    /// subscriber's demand counts only values it receives. A failure of `other` cancels upstream
    /// and fails the stream; if `other` finishes without a value nothing could ever pass, so
    /// upstream is cancelled and the stream finishes. Upstream and `other` may deliver on
    /// different threads; the subscriber's calls are serialised.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The failure type shared by both publishers.
        public typealias Failure = Upstream.Failure

        /// The republished publisher.
        public let upstream: Upstream
        /// The publisher whose first value opens the stream.
        public let other: Other

        /// Creates the operator.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Subscribes `subscriber`; `other` is subscribed once the subscriber has its subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UntilOutputRelay(downstream: subscriber, name: "DropUntilOutput", mode: .drop)
            relay.setTrigger(other) { $0 }
            upstream.subscribe(relay)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Omits values until `publisher` sends a value, as Combine's `drop(untilOutputFrom:)`.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}
