/// A protocol that declares a type that can receive input from a publisher, as Combine's
/// `Subscriber`.
///
/// Publishers call these methods serially (never two at once for one subscriber), though not
/// necessarily on the same thread every time.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive; `Never` if none.
    associatedtype Failure: Error

    /// Called once, first: the subscriber requests values with `subscription.request(_:)`.
    func receive(subscription: Subscription)

    /// Delivers one value; the returned demand is *added* to the outstanding demand.
    func receive(_ input: Input) -> Subscribers.Demand

    /// Delivers the end of the stream, normal or failed. No call follows it.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Delivers a `Void` value, as Combine's convenience of the same name.
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}
