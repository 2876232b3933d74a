/// The subscription of `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`: an upstream
/// whose values pass (or stop passing) once a second publisher, the trigger, sends its first
/// value.
///
/// The trigger is asked for one value; when it arrives the trigger is cancelled and the mode
/// decides: `.prefix` cancels upstream and finishes, `.drop` starts passing values on. Upstream
/// and trigger may deliver on different threads: state is under `lock`, and every downstream
/// call is made holding `delivery` (recursive, for re-entrant sends), so the downstream never
/// sees two calls at once nor anything after the completion.
final class UntilOutputRelay<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    enum Mode {
        /// Values pass until the trigger fires; then the stream finishes.
        case prefix
        /// Values are dropped until the trigger fires; then they pass.
        case drop
    }

    private let mode: Mode
    private let delivery = RecursiveLock()
    // Guarded by `lock`.
    private var trigger: Subscription?
    private var triggered = false
    private var ended = false

    init(downstream: Downstream, name: String, mode: Mode) {
        self.mode = mode
        super.init(downstream: downstream, name: name)
    }

    /// Subscribes to the trigger once the downstream has its subscription (set before upstream
    /// is subscribed; run once, then released).
    private var startTrigger: (() -> Void)?

    /// Makes `other` the trigger, subscribed once the downstream has its subscription, so that
    /// nothing reaches the downstream before it; `failure` says how a trigger failure ends the
    /// stream (nil: it is ignored). Call before subscribing this relay to upstream.
    func setTrigger<Other: Publisher>(_ other: Other, failure: @escaping (Other.Failure) -> Failure?) {
        startTrigger = { [unowned self] in subscribeTrigger(other, failure: failure) }
    }

    override func receive(subscription: Subscription) {
        guard attach(subscription) else { return }
        downstream.receive(subscription: self)
        let start = lock.withLock { () -> (() -> Void)? in
            defer { startTrigger = nil }
            return startTrigger
        }
        start?()
    }

    private func subscribeTrigger<Other: Publisher>(
        _ other: Other, failure: @escaping (Other.Failure) -> Failure?
    ) {
        other.subscribe(
            AnySubscriber<Other.Output, Other.Failure>(
                receiveSubscription: { [self] in attachTrigger($0) },
                receiveValue: { [self] _ in
                    fire()
                    return .none
                },
                receiveCompletion: { [self] completion in
                    switch completion {
                    case .finished: triggerFinished()
                    case .failure(let error): if let mapped = failure(error) { end(.failure(mapped)) }
                    }
                }))
    }

    private func attachTrigger(_ subscription: Subscription) {
        lock.lock()
        guard !ended, !triggered, trigger == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        trigger = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    private func fire() {
        lock.lock()
        guard !ended, !triggered else { return lock.unlock() }
        triggered = true
        let source = trigger
        trigger = nil
        lock.unlock()
        source?.cancel()
        if mode == .prefix { end(.finished) }
    }

    /// The trigger finished without a value: `prefix` keeps relaying; `drop` would never pass
    /// anything, so it finishes.
    private func triggerFinished() {
        lock.lock()
        guard !triggered else { return lock.unlock() }
        trigger = nil
        lock.unlock()
        if mode == .drop { end(.finished) }
    }

    /// Ends the stream from the trigger's side: both subscriptions are cancelled.
    private func end(_ completion: Subscribers.Completion<Failure>) {
        guard let sources = detach() else { return }
        sources.upstream?.cancel()
        sources.trigger?.cancel()
        deliver(completion)
    }

    /// Marks the stream ended and hands back both subscriptions; nil if it had already ended.
    private func detach() -> (upstream: Subscription?, trigger: Subscription?)? {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return nil }
        ended = true
        defer {
            upstream = nil
            trigger = nil
        }
        return (upstream, trigger)
    }

    private func deliver(_ completion: Subscribers.Completion<Failure>) {
        delivery.lock()
        downstream.receive(completion: completion)
        delivery.unlock()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let passes = !ended && (mode == .prefix || triggered)
        let dropped = !ended && !passes
        lock.unlock()
        if dropped { return .max(1) }
        guard passes else { return .none }
        delivery.lock()
        defer { delivery.unlock() }
        // The trigger may have ended the stream while this value waited for `delivery`.
        guard !lock.withLock({ ended }) else { return .none }
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard let sources = detach() else { return }
        sources.trigger?.cancel()
        deliver(completion)
    }

    override func cancel() {
        guard let sources = detach() else { return }
        sources.upstream?.cancel()
        sources.trigger?.cancel()
    }
}
