/// A publisher that emits one value and then finishes, as Combine's `Just`.
///
/// Each subscriber gets `value` on its first positive demand, then `.finished`. A subscriber that
/// cancels first gets nothing. It cannot fail.
public struct Just<Output>: Publisher {
    /// Never: `Just` cannot fail.
    public typealias Failure = Never

    /// The value every subscriber receives.
    public let output: Output

    /// Creates a publisher of the single value `output`.
    public init(_ output: Output) {
        self.output = output
    }

    /// Attaches `subscriber`; delivery waits for demand.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription<S, JustSubscriptionName>(output, subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// `Just`'s subscription: the value and `.finished` on the first positive demand, once. Also
/// `Optional.Publisher`'s and `Result.Publisher`'s for a value; `Name` is the name each shows
/// (`Just`, `Optional`, `Once`), with the value as the mirror's one unlabeled child until it is
/// delivered, as Combine's.
final class JustSubscription<S: Subscriber, Name: SubscriptionName>: Subscription, OperatorIntrospection,
    @unchecked Sendable
{
    // Inline (one atomic word): a `Just` is often subscribed once per value (`flatMap { Just($0) }`),
    // where a separately allocated mutex cost more than the rest of the subscription.
    private let lock = InlineLock()
    /// The value and the subscriber until delivery or cancel, behind one class reference: in
    /// unspecialised code each generic optional (`S?`, `S.Input?`) cost a metadata lookup on
    /// every read, write and release.
    @exclusivity(unchecked) private var pending: JustDelivery<S>?

    init(_ value: S.Input, _ downstream: S) {
        pending = JustDelivery(value: value, downstream: downstream)
    }

    var description: String { Name.name }

    var customMirror: Mirror {
        lock.lock()
        let delivery = pending
        lock.unlock()
        guard let delivery else { return Mirror(self, children: [:]) }
        return Mirror(self, unlabeledChildren: [delivery.value as Any])
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        guard let delivery = pending else {
            lock.unlock()
            return
        }
        pending = nil
        lock.unlock()
        _ = delivery.downstream.receive(delivery.value)
        delivery.downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let dropped = pending
        pending = nil
        lock.unlock()
        withExtendedLifetime(dropped) {}
    }
}

/// What a `JustSubscription` still has to deliver.
final class JustDelivery<S: Subscriber>: @unchecked Sendable {
    let value: S.Input
    let downstream: S

    init(value: S.Input, downstream: S) {
        self.value = value
        self.downstream = downstream
    }
}
