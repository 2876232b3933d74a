import Synchronization

/// The subscription state machine of a one-upstream operator that has a subscription of its own
/// but no other state to guard (`removeDuplicates`): awaiting → open → closed, as Combine's
/// filtering operators keep it. It is the subscription the downstream holds.
///
/// A separate object from the operator's subscriber (which holds it): the downstream holds the
/// gate, never the subscriber. The subscriber (with the predicate and last value) lives as long
/// as the upstream keeps it; the gate lets the upstream go on completion or cancel, without a
/// lock on the value path. The gate keeps the downstream for its whole life, after the end too,
/// as Combine's subscription was recorded to (OpenCombine's lifecycle tests): a downstream that
/// still holds its subscription after a failure or a cancel is not released.
///
/// - One subscription: the first is kept; any other, and any after the end, is cancelled.
/// - Values and completions pass only while open (`isOpen`, `close()`): before the
///   subscription (a precondition failure in Combine, dropped here) or after the end (completion
///   or cancel) they are dropped.
/// - `request` and `cancel` reach the upstream only while open; cancel closes, once.
///
/// Its lock and its transitions stay out of the inlinable surface (see docs/DESIGN-NOTES.md,
/// "Inlinable hot paths"): inlinable operator code reaches them through these non-inlinable
/// methods (it is not generic, so the calls need no type metadata). Only `isOpen`, one atomic
/// load on every value, is inlinable, with the state word and its values.
@usableFromInline
final class SubscriptionGate: Subscription, OperatorIntrospection, @unchecked Sendable {
    @usableFromInline
    enum State: UInt8 {
        case awaiting, open, closed
    }

    // Written under `lock`; read without it on the value path (a relaxed load: a value racing
    // a cancel on another thread may still pass, as in Combine, where the check and the
    // delivery are not atomic either).
    @usableFromInline let state = Atomic<UInt8>(State.awaiting.rawValue)
    private let lock = InlineLock()
    // Guarded by `lock`.
    private var upstream: Subscription?
    // Guarded by `lock`: the downstream, from the subscription on (never read).
    private var keptDownstream: Any?

    /// The operator's name, as `Print` shows this subscription.
    @usableFromInline let description: String

    @usableFromInline
    init(name: String) {
        description = name
    }

    /// Keeps `subscription` if none was ever kept and the gate is not closed (true), and with it
    /// `downstream`, the subscriber the gate is handed to; otherwise cancels it (false).
    @usableFromInline
    func open(_ subscription: Subscription, keeping downstream: Any) -> Bool {
        lock.lock()
        guard state.load(ordering: .relaxed) == State.awaiting.rawValue else {
            lock.unlock()
            subscription.cancel()
            return false
        }
        upstream = subscription
        keptDownstream = downstream
        state.store(State.open.rawValue, ordering: .releasing)
        lock.unlock()
        return true
    }

    /// True between the subscription and the end: the only time a value may pass.
    @inlinable
    var isOpen: Bool {
        state.load(ordering: .acquiring) == State.open.rawValue
    }

    /// The upstream completed: closes the gate. True if it was open (the completion passes on);
    /// false before the subscription or after the end (the completion is dropped).
    @usableFromInline
    func close() -> Bool {
        lock.lock()
        let wasOpen = state.load(ordering: .relaxed) == State.open.rawValue
        state.store(State.closed.rawValue, ordering: .releasing)
        let finished = upstream
        upstream = nil
        lock.unlock()
        withExtendedLifetime(finished) {}
        return wasOpen
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let source = upstream
        lock.unlock()
        source?.request(demand)
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        let source = upstream
        upstream = nil
        state.store(State.closed.rawValue, ordering: .releasing)
        lock.unlock()
        source?.cancel()
    }
}
