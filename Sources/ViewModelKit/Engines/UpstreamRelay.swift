/// The subscription shared by the one-upstream operators that stand between their upstream and
/// downstream with their own subscription (`dropFirst`, `output(at:)`/`prefix`, `tryMap`,
/// `print`, `handleEvents`): it keeps the upstream subscription under a lock and, unless a
/// subclass says otherwise, passes `request` and `cancel` straight to it.
///
/// Subclasses add `Subscriber` with their own `receive(_:)` and `receive(completion:)`; the
/// receive calls are serial (the upstream's contract), so state only they touch needs no lock.
/// Lock rule: nothing is called out while `lock` is held.
///
/// The subscription keeps its downstream for as long as it lives, after the end too, as
/// Combine's subscriptions of these operators were recorded to (OpenCombine's lifecycle tests:
/// a subscriber that still holds its subscription after a failure or a cancel is not released;
/// one that lets it go, as `Sink` does at the end, is). Events stop at the end all the same:
/// subclasses reach the downstream through `downstream` (nil after the end: whatever they
/// would still send is dropped) and end it through `complete(_:)`; an overridden `cancel()`
/// calls `releaseDownstream()`.
class UpstreamRelay<Downstream: Subscriber>: Subscription, OperatorIntrospection, @unchecked Sendable {
    let lock = Lock()
    /// Guarded by `lock`; nil once the stream has ended for the downstream.
    private var target: Downstream?
    /// The downstream, held for the subscription's whole life as Combine holds it (never read).
    private let keptDownstream: Downstream
    /// Guarded by `lock`; nil before the subscription arrives and after completion or cancel.
    var upstream: Subscription?
    /// Guarded by `lock`; set once the stream has ended (completion, cancel, or a completion that
    /// came before any subscription). A subscription arriving after that is cancelled, as
    /// Combine's operators cancel any subscription they no longer want.
    var relayClosed = false
    /// The operator's name, as `Print` shows this subscription.
    let description: String

    init(downstream: Downstream, name: String) {
        target = downstream
        keptDownstream = downstream
        description = name
    }

    /// No children, as Combine reflects most of these subscriptions; a subclass reflecting more
    /// overrides it.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The downstream as the subscription holds it, for a subclass's mirror.
    final var reflectedDownstream: Downstream { keptDownstream }

    /// The downstream while the stream lasts for it; nil after its final completion or a cancel.
    final var downstream: Downstream? {
        lock.withLock { target }
    }

    /// Sends the downstream its final completion and lets it go; nothing if it already ended.
    final func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let ending = takeDownstream()
        ending?.receive(completion: completion)
    }

    /// Ends the stream for the downstream (it cancelled): nothing reaches it any more.
    final func releaseDownstream() {
        let released = takeDownstream()
        withExtendedLifetime(released) {}
    }

    private func takeDownstream() -> Downstream? {
        lock.lock()
        defer { lock.unlock() }
        let taken = target
        target = nil
        return taken
    }

    /// Keeps `subscription` and hands `self` to the downstream; a second subscription is cancelled.
    func receive(subscription: Subscription) {
        guard attach(subscription) else { return }
        downstream?.receive(subscription: self)
    }

    /// Keeps `subscription` unless one is already kept, in which case it is cancelled (false).
    final func attach(_ subscription: Subscription) -> Bool {
        lock.lock()
        guard upstream == nil, !relayClosed else {
            lock.unlock()
            subscription.cancel()
            return false
        }
        upstream = subscription
        lock.unlock()
        return true
    }

    /// Removes and returns the upstream subscription: to cancel it, or to forget it once it
    /// has completed.
    @discardableResult
    final func takeUpstream() -> Subscription? {
        lock.lock()
        defer { lock.unlock() }
        let source = upstream
        upstream = nil
        relayClosed = true
        return source
    }

    /// True between the subscription and the end of the stream: the only time a value may be
    /// passed on. A value before the subscription (a precondition failure in Combine) or after
    /// the end is dropped by the callers.
    final var isLive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return upstream != nil
    }

    /// True if a completion may pass now (the relay is live). Otherwise the completion came
    /// before the subscription (a precondition failure in Combine) or after the end: the caller
    /// drops it, and the relay is closed so that a later subscription is cancelled.
    final func admitsCompletion() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if upstream != nil { return true }
        relayClosed = true
        return false
    }

    /// The upstream has completed: forgets it and passes `completion` on, once. A completion
    /// before the subscription (a precondition failure in Combine) or after the end is dropped,
    /// and closes the relay.
    final func forward(_ completion: Subscribers.Completion<Downstream.Failure>) {
        guard takeUpstream() != nil else { return }
        complete(completion)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        releaseDownstream()
        takeUpstream()?.cancel()
    }
}
