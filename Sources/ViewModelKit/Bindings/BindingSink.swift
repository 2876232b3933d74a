/// A subscriber that applies each value to an owner it holds weakly, as the target of a binding
/// (`sink <~ publisher`). After CombineViewModel's `BindingSink`.
///
/// - It requests `.unlimited` demand from its (single) subscription; a second subscription is
///   cancelled. Make one sink per binding (`owner.reactive.x` creates a fresh one each time).
/// - If the owner has been deallocated when a value or the subscription arrives, the sink cancels
///   its subscription and stops; nothing is applied.
/// - Completion (which can only be `.finished`) just ends the binding.
/// - Threads: `receiveValue` runs on the thread the publisher delivers on; put a
///   `receive(on:)` in front when the owner must be touched on one thread.
public final class BindingSink<Owner: BindingOwner, Input>: Subscriber, Cancellable, @unchecked Sendable {
    /// This sink never fails.
    public typealias Failure = Never

    // Guards the state below; never held while calling `receiveValue` or the subscription.
    private let lock = Lock()
    private weak var weakOwner: Owner?
    private var subscription: Subscription?
    private var done = false
    let receiveValue: (Owner, Input) -> Void

    /// The owner, or `nil` once it has been deallocated.
    public var owner: Owner? { weakOwner }

    /// A sink applying values to `owner` with `receiveValue(owner, value)`.
    public init(owner: Owner, receiveValue: @escaping (Owner, Input) -> Void) {
        weakOwner = owner
        self.receiveValue = receiveValue
    }

    /// Keeps the first subscription and requests unlimited values; cancels any other one, and
    /// this one too if the owner is already gone.
    public func receive(subscription: Subscription) {
        let accepted = lock.withLock { () -> Bool in
            guard !done, self.subscription == nil, weakOwner != nil else { return false }
            self.subscription = subscription
            return true
        }
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    /// Applies `input` to the owner, or cancels the binding if the owner is gone.
    public func receive(_ input: Input) -> Subscribers.Demand {
        guard let owner = weakOwner, !lock.withLock({ done }) else {
            cancel()
            return .none
        }
        receiveValue(owner, input)
        return .none
    }

    /// Ends the binding.
    public func receive(completion: Subscribers.Completion<Never>) {
        let old = lock.withLock { () -> Subscription? in
            done = true
            defer { subscription = nil }
            return subscription
        }
        withExtendedLifetime(old) {}
    }

    /// Cancels the upstream subscription. Idempotent; safe from any thread.
    public func cancel() {
        let old = lock.withLock { () -> Subscription? in
            done = true
            defer { subscription = nil }
            return subscription
        }
        old?.cancel()
    }
}

extension BindingSink {
    /// A sink for the non-optional values of an optional target: each value is wrapped in
    /// `.some` and handed to this sink's `receiveValue`. The owner is the same (held weakly).
    /// Returns `nil` if the owner is gone.
    func lifted<Wrapped>() -> BindingSink<Owner, Wrapped>? where Input == Wrapped? {
        guard let owner = weakOwner else { return nil }
        let apply = receiveValue
        return BindingSink<Owner, Wrapped>(owner: owner) { owner, value in apply(owner, .some(value)) }
    }
}
