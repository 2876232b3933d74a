import LoopScheduler

/// A connection between a subscriber and a publisher, as Combine's `Subscription`.
///
/// `request(_:)` and `cancel()` may be called from any thread. After `cancel()` the publisher
/// stops delivering as soon as it can and releases the subscriber.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells the publisher it may send `demand` more values. Demands add up (saturating).
    func request(_ demand: Subscribers.Demand)
}
