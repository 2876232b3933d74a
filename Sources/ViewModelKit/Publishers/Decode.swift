extension Publishers {
    /// Decodes each value with a `TopLevelDecoder`, as Combine's `Publishers.Decode`.
    ///
    /// A decoding error cancels upstream and fails the stream; an upstream failure is passed on
    /// as `any Error`. Demand passes straight through; decoding runs on the delivering thread.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// Any error: the upstream's or the decoder's.
        public typealias Failure = Error

        /// The upstream publisher.
        public let upstream: Upstream
        private let decoder: Coder

        /// Creates the operator.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let decoder = self.decoder
            upstream.subscribe(
                StepRelay<Upstream.Output, Upstream.Failure, S>(throwingTo: subscriber, name: "Decode") {
                    .emit(try decoder.decode(Output.self, from: $0))
                })
        }
    }
}

extension Publisher {
    /// Decodes each value as `type` with `decoder`, as Combine's `decode(type:decoder:)`.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}
