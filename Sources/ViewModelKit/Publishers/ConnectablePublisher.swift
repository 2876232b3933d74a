/// A publisher that starts producing only when `connect()` is called, as Combine's
/// `ConnectablePublisher`. Subscribers can attach first, so none misses the first values.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Starts the upstream work. Cancelling the returned token stops it. Thread-safe.
    func connect() -> Cancellable
}

extension ConnectablePublisher {
    /// Connects on the first subscriber and disconnects when the last one leaves, as Combine's
    /// `autoconnect()`. See `Publishers.Autoconnect`.
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}
