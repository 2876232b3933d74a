extension Publishers {
    /// Omits values until a second publisher sends its first value, then republishes all, as
    /// Combine's `Publishers.DropUntilOutput`.
    ///
    /// In Combine's order, the subscriber gets its subscription, then `other` is subscribed and
    /// asked for one value (which cancels it), then upstream (demand asked for earlier is passed
    /// on then). An omitted value uses up its unit of demand, as in Combine. Before `other`'s
    /// value, its failure cancels upstream and fails the stream, and its finishing without a
    /// value (nothing could ever pass) cancels upstream and finishes; after it, `other`'s
    /// completion is ignored. Upstream and `other` may deliver on different threads; the
    /// subscriber's calls are serialised.
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

        /// Hands `subscriber` its subscription, then subscribes `other`, then upstream (Combine's order).
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UntilOutputRelay(downstream: subscriber, name: "DropUntilOutput", mode: .drop)
            relay.start(upstream: upstream, trigger: other) { $0 }
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
