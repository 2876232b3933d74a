extension Publishers {
    /// Emits all of `prefix`'s values, then all of `suffix`'s, as Combine's
    /// `Publishers.Concatenate` (behind `prepend` and `append`).
    ///
    /// `suffix` is subscribed only after `prefix` finishes, and receives the downstream's
    /// remaining demand. A failure of either ends the stream. Values arrive on the thread of the
    /// publisher that produced them.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
        /// The common output type.
        public typealias Output = Suffix.Output
        /// The common failure type.
        public typealias Failure = Suffix.Failure

        /// The publisher that goes first.
        public let prefix: Prefix
        /// The publisher subscribed once `prefix` has finished.
        public let suffix: Suffix

        /// Concatenates `prefix` and `suffix`.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let suffix = self.suffix
            subscribeRelay(
                subscriber, name: "Concatenate", first: prefix,
                then: { completion -> RelayStep<Suffix, Failure> in
                    switch completion {
                    case .finished: .then(suffix)
                    case .failure: .end(completion)
                    }
                }, failure: { $0 })
        }
    }
}

extension Publisher {
    /// Emits `elements` before this publisher's values, as Combine's `prepend(_:)`.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Emits the elements of `elements` before this publisher's values, as Combine's `prepend(_:)`.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where S.Element == Output {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Emits all of `publisher`'s values before this publisher's, as Combine's `prepend(_:)`.
    /// This publisher is subscribed only after `publisher` finishes.
    public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Emits `elements` after this publisher finishes, as Combine's `append(_:)`.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Emits the elements of `elements` after this publisher finishes, as Combine's `append(_:)`.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where S.Element == Output {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Emits all of `publisher`'s values after this publisher finishes, as Combine's `append(_:)`.
    public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P.Output == Output, P.Failure == Failure {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}
