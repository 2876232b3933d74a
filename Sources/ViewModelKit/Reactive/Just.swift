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
        subscriber.receive(subscription: JustSubscription(output, subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// `Just`'s subscription: the value and `.finished` on the first positive demand, once.
final class JustSubscription<S: Subscriber>: Subscription, CustomStringConvertible, @unchecked Sendable {
    // Inline (one atomic word): a `Just` is often subscribed once per value (`flatMap { Just($0) }`),
    // where a separately allocated mutex cost more than the rest of the subscription.
    private let lock = InlineLock()
    private var pending: S.Input?
    private var downstream: S?

    init(_ value: S.Input, _ downstream: S) {
        self.pending = value
        self.downstream = downstream
    }

    var description: String { "Just" }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        guard let target = downstream, let value = pending else {
            lock.unlock()
            return
        }
        downstream = nil
        pending = nil
        lock.unlock()
        _ = target.receive(value)
        target.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let target = downstream
        downstream = nil
        pending = nil
        lock.unlock()
        withExtendedLifetime(target) {}
    }
}
