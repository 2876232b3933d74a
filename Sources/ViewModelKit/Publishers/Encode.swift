extension Publishers {
    /// Encodes each value with a `TopLevelEncoder`, as Combine's `Publishers.Encode`.
    ///
    /// An encoding error cancels upstream and fails the stream; an upstream failure is passed on
    /// as `any Error`. Demand passes straight through; encoding runs on the delivering thread.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        /// The encoder's representation.
        public typealias Output = Coder.Output
        /// Any error: the upstream's or the encoder's.
        public typealias Failure = Error

        /// The upstream publisher.
        public let upstream: Upstream
        private let encoder: Coder

        /// Creates the operator.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let encoder = self.encoder
            upstream.subscribe(
                StepRelay<Upstream.Output, Upstream.Failure, S>(throwingTo: subscriber, name: "Encode") {
                    .emit(try encoder.encode($0))
                })
        }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes each value with `encoder`, as Combine's `encode(encoder:)`.
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}
