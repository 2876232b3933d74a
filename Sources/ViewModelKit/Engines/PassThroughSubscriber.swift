/// An operator's subscriber that takes no subscription of its own (`map`, `filter`,
/// `compactMap`, `scan`, `ignoreOutput`, `setFailureType`, `mapError`): it
/// hands the upstream subscription to its downstream unchanged, so demand, cancellation and
/// threads are exactly the upstream's, and holds no lock. Each conformer writes only its own
/// `receive(_:)` (and whatever else differs); the defaults below pass the rest through.
@usableFromInline
protocol PassThroughSubscriber: Subscriber, OperatorIntrospection {
    associatedtype Downstream: Subscriber
    var downstream: Downstream { get }
}

extension PassThroughSubscriber {
    @inlinable
    func receive(subscription: Subscription) {
        downstream.receive(subscription: subscription)
    }
}

extension PassThroughSubscriber where Failure == Downstream.Failure {
    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}
