extension Result {
    /// A publisher of this result, as Combine's `Result.Publisher`.
    ///
    /// `.success`: each subscriber gets the value on its first positive demand, then
    /// `.finished`. `.failure`: each subscriber gets the failure right after its subscription,
    /// without demand (the difference from `Just`).
    public struct Publisher: ViewModelKit.Publisher {
        /// The success type.
        public typealias Output = Success

        /// The result every subscriber receives.
        public let result: Result<Output, Failure>

        /// A publisher of `result`.
        public init(_ result: Result<Output, Failure>) {
            self.result = result
        }

        /// A publisher of the value `output`.
        public init(_ output: Output) {
            self.result = .success(output)
        }

        /// A publisher that fails with `failure`.
        public init(_ failure: Failure) {
            self.result = .failure(failure)
        }

        /// Attaches `subscriber`; see the type's documentation.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            switch result {
            case .success(let value):
                subscriber.receive(subscription: JustSubscription<S, OnceSubscriptionName>(value, subscriber))
            case .failure(let error):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(error))
            }
        }
    }

    /// This result as a publisher, as Combine's `Result.publisher`.
    public var publisher: Publisher {
        Publisher(self)
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
