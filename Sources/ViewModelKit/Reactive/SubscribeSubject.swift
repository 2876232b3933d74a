extension Publisher {
    /// Feeds this publisher into `subject`, as Combine's `subscribe(_:)` taking a subject.
    ///
    /// The subject receives the upstream subscription (and requests `.unlimited` from it once one
    /// of its own subscribers has requested demand, as Combine's subjects do), every value
    /// and the completion. Cancelling (or dropping) the returned token cancels the upstream
    /// subscription. The subject is held weakly, as Combine holds it: a connected `Multicast`
    /// does not keep its subject alive, and once the subject is gone the next value cancels the
    /// upstream.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
    where S.Output == Output, S.Failure == Failure {
        let bridge = SubjectSubscriber(subject)
        subscribe(bridge)
        return AnyCancellable(bridge)
    }
}

/// The subscriber behind `subscribe(_ subject:)`: it forwards to the subject and is itself the
/// subscription the subject holds, so the subject's requests and cancels reach upstream.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    private weak var subject: Downstream?
    private var upstream: Subscription?
    private var terminated = false

    init(_ subject: Downstream) {
        self.subject = subject
    }

    var description: String { "Subject" }

    func receive(subscription: Subscription) {
        lock.lock()
        guard upstream == nil, !terminated, let target = subject else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        target.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // Nothing before the subscription (a precondition failure in Combine) or after the end.
        guard !terminated, upstream != nil else {
            lock.unlock()
            return .none
        }
        guard let target = subject else {
            // The subject died: nobody can see values any more.
            let source = terminated ? nil : upstream
            upstream = nil
            terminated = true
            lock.unlock()
            source?.cancel()
            return .none
        }
        lock.unlock()
        target.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // After the end: ignored. Before the subscription (a precondition failure in Combine):
        // dropped, and the bridge is closed (a later subscription is cancelled).
        let early = upstream == nil
        guard !terminated, !early else {
            terminated = true
            lock.unlock()
            return
        }
        let target = subject
        subject = nil
        upstream = nil
        terminated = true
        lock.unlock()
        target?.send(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let source = upstream
        lock.unlock()
        source?.request(demand)
    }

    func cancel() {
        lock.lock()
        let source = upstream
        let target = subject
        upstream = nil
        subject = nil
        terminated = true
        lock.unlock()
        source?.cancel()
        withExtendedLifetime(target) {}
    }
}
