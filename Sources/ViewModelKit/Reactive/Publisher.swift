/// Declares that a type can transmit a sequence of values over time, as Combine's `Publisher`.
///
/// A publisher delivers to a subscriber, in order: one `receive(subscription:)`, then at most as
/// many `receive(_:)` calls as the subscriber requested, then at most one
/// `receive(completion:)`. Calls to one subscriber are never concurrent.
public protocol Publisher<Output, Failure> {
    /// The kind of values published.
    associatedtype Output
    /// The kind of error published; `Never` if the publisher cannot fail.
    associatedtype Failure: Error

    /// Attaches `subscriber`. Called by `subscribe(_:)`; implement it, but call `subscribe(_:)`.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches `subscriber` to this publisher, as Combine's `subscribe(_:)`.
    @inlinable
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}
