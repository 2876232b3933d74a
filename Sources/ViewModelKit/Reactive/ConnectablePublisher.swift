/// A publisher that starts producing only when `connect()` is called, as Combine's
/// `ConnectablePublisher`. Subscribers can attach first, so none misses the first values.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Starts the upstream work. Cancelling the returned token stops it. Thread-safe.
    func connect() -> Cancellable
}
