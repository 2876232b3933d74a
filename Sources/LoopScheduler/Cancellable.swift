/// Something whose activity can be stopped: a subscription, a timer, a registration.
///
/// Same shape and meaning as Combine's `Cancellable`. `cancel()` releases resources the activity
/// holds and must be safe to call more than once; implementations document on which thread it
/// may be called.
public protocol Cancellable {
    /// Stops the activity and frees what it holds. Calling it again has no effect.
    func cancel()
}
