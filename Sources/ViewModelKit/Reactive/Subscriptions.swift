/// Namespace for ready-made subscriptions, as Combine's `Subscriptions`.
public enum Subscriptions {}

extension Subscriptions {
    /// A subscription that does nothing on `request` or `cancel`, as Combine's
    /// `Subscriptions.empty`. Publishers that complete at once (`Empty`, `Fail`, a finished
    /// subject) hand it to the subscriber before the completion.
    public static var empty: Subscription { EmptySubscription.shared }
}

/// The shared inert subscription behind `Subscriptions.empty`.
final class EmptySubscription: Subscription, CustomStringConvertible, Sendable {
    static let shared = EmptySubscription()
    let combineIdentifier = CombineIdentifier()
    private init() {}
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
    var description: String { "Empty" }
}
