/// A type-erasing subscriber, as Combine's `AnySubscriber`.
///
/// It forwards the three calls to the wrapped subscriber (or closures) and keeps the wrapped
/// subscriber's `combineIdentifier`, so an erased subscriber is recognisable. `description` is
/// that of the wrapped subscriber when it has one.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
    private let receiveSubscriptionBody: ((Subscription) -> Void)?
    private let receiveValueBody: ((Input) -> Subscribers.Demand)?
    private let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?
    private let descriptionBody: (() -> String)?

    /// The wrapped subscriber's identifier (or a fresh one for closure-built subscribers).
    public let combineIdentifier: CombineIdentifier

    /// Wraps `subscriber`. Wrapping an `AnySubscriber` again does not nest.
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let erased = subscriber as? AnySubscriber<Input, Failure> {
            self = erased
            return
        }
        combineIdentifier = subscriber.combineIdentifier
        receiveSubscriptionBody = subscriber.receive(subscription:)
        receiveValueBody = subscriber.receive(_:)
        receiveCompletionBody = subscriber.receive(completion:)
        if let described = subscriber as? CustomStringConvertible {
            descriptionBody = { described.description }
        } else {
            descriptionBody = nil
        }
    }

    /// Wraps a subject: the subscription goes to `send(subscription:)`, values to `send(_:)`
    /// (each asking for no more demand: the subject already asked for `.unlimited`), and the
    /// completion to `send(completion:)`.
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        combineIdentifier = CombineIdentifier(subject)
        receiveSubscriptionBody = { subject.send(subscription: $0) }
        receiveValueBody = {
            subject.send($0)
            return .none
        }
        receiveCompletionBody = { subject.send(completion: $0) }
        descriptionBody = { "\(S.self)" }
    }

    /// Builds a subscriber from closures; a missing `receiveValue` asks for no more demand.
    public init(
        receiveSubscription: ((Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        combineIdentifier = CombineIdentifier()
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
        descriptionBody = nil
    }

    /// The wrapped subscriber's description, or `"Anonymous AnySubscriber"`.
    public var description: String { descriptionBody?() ?? "Anonymous AnySubscriber" }

    /// Forwards the subscription.
    public func receive(subscription: Subscription) {
        receiveSubscriptionBody?(subscription)
    }

    /// Forwards a value and returns the wrapped subscriber's extra demand.
    public func receive(_ value: Input) -> Subscribers.Demand {
        receiveValueBody?(value) ?? .none
    }

    /// Forwards the completion.
    public func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionBody?(completion)
    }
}
