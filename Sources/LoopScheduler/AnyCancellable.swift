import Synchronization

/// A type-erasing cancellable that cancels when it is deinitialised, as Combine's `AnyCancellable`.
///
/// `cancel()` is idempotent and thread-safe: the wrapped cancel action runs at most once, on the
/// thread of the first `cancel()` (or of the deinit), and is released right after it ran.
/// Equality and hashing are by object identity, so a token can be kept in a
/// `Set<AnyCancellable>`.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    // What to cancel. Written in `init`, then read and cleared only by the thread that moves
    // `state` from armed to cancelling; the release store of `done` publishes the clearing to a
    // later deinit on another thread.
    // Two words at most, so a token is one 48-byte allocation: a class cancellable is kept as a
    // plain reference (an `any Cancellable` existential would take five words).
    private enum Target {
        case closure(() -> Void)
        case object(AnyObject)
    }

    private static let armed: UInt8 = 0
    private static let cancelling: UInt8 = 1
    private static let done: UInt8 = 2

    private let state = Atomic<UInt8>(AnyCancellable.armed)
    private var target: Target?

    /// Wraps a cancel action. It runs at most once: on the first `cancel()` or on deinit.
    public init(_ cancel: @escaping () -> Void) {
        target = .closure(cancel)
    }

    /// Wraps another cancellable; cancelling (or dropping) this token cancels it. A class
    /// cancellable is stored as a reference (no closure is allocated around it).
    public init<C: Cancellable>(_ canceller: C) {
        if C.self is AnyClass {
            target = .object(canceller as AnyObject)
        } else {
            target = .closure(canceller.cancel)
        }
    }

    deinit {
        if state.load(ordering: .acquiring) == AnyCancellable.armed {
            cancel()
        }
    }

    /// Runs the cancel action if it has not run yet. Safe from any thread; a second call is a no-op.
    public func cancel() {
        guard
            state.compareExchange(
                expected: AnyCancellable.armed, desired: AnyCancellable.cancelling, ordering: .acquiring
            ).exchanged
        else { return }
        let taken = target
        target = nil
        state.store(AnyCancellable.done, ordering: .releasing)
        switch taken {
        case .closure(let action): action()
        case .object(let object):
            // Stored only from a `Cancellable` class instance, so the cast cannot fail.
            (object as! any Cancellable).cancel()
        case nil: break
        }
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
