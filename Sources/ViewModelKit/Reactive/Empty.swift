/// A publisher that never emits a value and, optionally, finishes at once, as Combine's `Empty`.
///
/// Each subscriber gets `Subscriptions.empty` and then, if `completeImmediately`, `.finished`.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
    /// Whether subscribers get `.finished` right after the subscription (else nothing, ever).
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher, naming its output and failure types explicitly.
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Sends `Subscriptions.empty`, then `.finished` if `completeImmediately`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }
}

extension Empty: Sendable {}
