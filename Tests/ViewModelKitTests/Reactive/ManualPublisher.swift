import Synchronization
import ViewModelKit

/// A publisher the test drives by hand: it records every request and cancel its subscriber makes
/// (in `log`), and `send` pushes a value straight into the subscriber, ignoring demand, returning
/// the demand the subscriber gave back. One subscriber at a time.
final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    let log = DemandLog()
    private nonisolated(unsafe) var subscriber: AnySubscriber<Output, Failure>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let erased = AnySubscriber(subscriber)
        self.subscriber = erased
        erased.receive(subscription: LoggingSubscription(log))
    }

    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriber?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriber?.receive(completion: completion)
    }
}
