extension Optional {
    /// A publisher of this optional, as Combine's `Optional.Publisher`.
    ///
    /// With a value, each subscriber gets it on its first positive demand, then `.finished`;
    /// `nil` finishes each subscriber right after its subscription. It cannot fail.
    public struct Publisher: ViewModelKit.Publisher {
        /// The wrapped type.
        public typealias Output = Wrapped
        /// Never: this publisher cannot fail.
        public typealias Failure = Never

        /// The value every subscriber receives, if any.
        public let output: Wrapped?

        /// A publisher of `output`.
        public init(_ output: Output?) {
            self.output = output
        }

        /// Attaches `subscriber`; see the type's documentation.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            guard let value = output else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            subscriber.receive(subscription: JustSubscription<S, OptionalSubscriptionName>(value, subscriber))
        }
    }

    /// This optional as a publisher, as Combine's `Optional.publisher`.
    public var publisher: Publisher {
        Publisher(self)
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
extension Optional.Publisher: Sendable where Wrapped: Sendable {}
