/// A publisher that immediately fails with an error, as Combine's `Fail`.
///
/// Each subscriber gets `Subscriptions.empty`, then `.failure(error)` (no demand needed).
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error every subscriber receives.
    public let error: Failure

    /// Creates a publisher that fails with `error`.
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher that fails with `failure`, naming the output type explicitly.
    public init(outputType: Output.Type, failure: Failure) {
        self.error = failure
    }

    /// Sends `Subscriptions.empty`, then the failure.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {}
extension Fail: Sendable where Failure: Sendable {}
