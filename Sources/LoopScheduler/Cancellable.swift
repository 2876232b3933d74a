/// Something whose activity can be stopped: a subscription, a timer, a registration.
///
/// Same shape and meaning as Combine's `Cancellable`. `cancel()` releases resources the activity
/// holds and must be safe to call more than once; implementations document on which thread it
/// may be called.
public protocol Cancellable {
    /// Stops the activity and frees what it holds. Calling it again has no effect.
    func cancel()
}

extension Cancellable {
    /// Wraps this cancellable in an `AnyCancellable` and inserts it into `set`, as Combine's
    /// `Cancellable.store(in:)`: the activity is cancelled when the token leaves the set or the
    /// set is released.
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }

    /// Wraps this cancellable in an `AnyCancellable` and appends it to `collection`, as Combine's
    /// `Cancellable.store(in:)` for range-replaceable collections.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }
}
