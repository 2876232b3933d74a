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

    /// Demand the downstream asked for before upstream's subscription arrived.
    private var pendingDemand = Subscribers.Demand.none

    /// Starts the stream in Combine's order: the downstream gets its subscription first, then
    /// `other` (the trigger) is subscribed, then upstream. So a trigger that fires at once acts
    /// before any upstream value, and demand asked for early is kept for upstream. `failure`
    /// says how a trigger failure ends the stream (nil: it is ignored).
    func start<Upstream: Publisher, Other: Publisher>(
        upstream: Upstream, trigger other: Other, failure: @escaping (Other.Failure) -> Failure?
    ) where Upstream.Output == Input, Upstream.Failure == Failure {
        downstream?.receive(subscription: self)
        subscribeTrigger(other, failure: failure)
        upstream.subscribe(self)
    }

    override func receive(subscription: Subscription) {
        lock.lock()
        guard !ended, upstream == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        let demand = pendingDemand
        pendingDemand = .none
        lock.unlock()
        if demand > 0 { subscription.request(demand) }
    }

    override func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        guard !ended else { return lock.unlock() }
        guard let source = upstream else {
            pendingDemand += demand
            return lock.unlock()
        }
        lock.unlock()
        source.request(demand)
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
                    case .failure(let error): triggerFailed(failure(error))
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

    /// The trigger failed before firing: the stream fails with `error` (nil: ignored). After it
    /// fired, its completion means nothing, as in Combine.
    private func triggerFailed(_ error: Failure?) {
        guard let error, !lock.withLock({ triggered }) else { return }
        end(.failure(error))
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
        complete(completion)
        delivery.unlock()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        // Nothing before upstream's subscription (a precondition failure in Combine).
        let passes = !ended && upstream != nil && (mode == .prefix || triggered)
        lock.unlock()
        // A dropped value uses up its unit of demand, as in Combine.
        guard passes else { return .none }
        delivery.lock()
        defer { delivery.unlock() }
        // The trigger may have ended the stream while this value waited for `delivery`.
        guard !lock.withLock({ ended }) else { return .none }
        return downstream?.receive(input) ?? .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        // Before upstream's subscription (a precondition failure in Combine) the completion is
        // dropped; the stream is over all the same (the trigger is cancelled, and so is any
        // subscription that arrives later).
        let early = lock.withLock { upstream == nil }
        guard let sources = detach() else { return }
        sources.trigger?.cancel()
        if !early { deliver(completion) }
    }

    override func cancel() {
        releaseDownstream()
        guard let sources = detach() else { return }
        sources.upstream?.cancel()
        sources.trigger?.cancel()
    }
}
