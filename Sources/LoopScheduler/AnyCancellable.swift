/// A type-erasing cancellable that cancels when it is deinitialised, as Combine's `AnyCancellable`.
///
/// `cancel()` is idempotent and thread-safe: the wrapped cancel action runs at most once, on the
/// thread of the first `cancel()` (or of the deinit). The action is released after it has run,
/// outside any lock. Equality and hashing are by object identity, so a token can be kept in a
/// `Set<AnyCancellable>`.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    // The action is taken out under the lock and called after releasing it.
    private let lock = Lock()
    private var action: (() -> Void)?

    /// Wraps a cancel action. It runs at most once: on the first `cancel()` or on deinit.
    public init(_ cancel: @escaping () -> Void) {
        action = cancel
    }

    /// Wraps another cancellable; cancelling (or dropping) this token cancels it.
    public init<C: Cancellable>(_ canceller: C) {
        action = canceller.cancel
    }

    deinit {
        cancel()
    }

    /// Runs the cancel action if it has not run yet. Safe from any thread; a second call is a no-op.
    public func cancel() {
        let pending = lock.withLock { () -> (() -> Void)? in
            let taken = action
            action = nil
            return taken
        }
        pending?()
    }

    /// Identity equality: two tokens are equal only if they are the same object.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the object identity, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension AnyCancellable {
    /// Keeps this token alive in `set` until it is removed or the set is released, as Combine's
    /// `store(in:)`.
    public final func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Appends this token to `collection`, as Combine's `store(in:)` for range-replaceable
    /// collections (for example `[AnyCancellable]`).
    public final func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        collection.append(self)
    }
}
