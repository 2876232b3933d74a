/// The subscription shared by the scheduler operators: `receive(on:)`, `subscribe(on:)`,
/// `delay`, `timeout`, `debounce` and `throttle`. One upstream, one downstream, a scheduler, and
/// a lock over them.
///
/// As it stands it is `receive(on:)`: each value and the completion go through `schedule(_:)`
/// in arrival order and are delivered there unless the stream has ended meanwhile. Subclasses
/// override what differs: where deliveries are scheduled (`delay`), what values do (`debounce`,
/// `throttle`), a timer (`timeout`), or how requests and cancel reach upstream (`subscribe(on:)`).
///
/// Demand takes one of two routes. `.upstream`: requests go straight to the upstream, and so
/// does extra demand returned from a delivery. `.local` (debounce, throttle): the upstream is
/// asked for `.unlimited`, requests are counted here and a value that meets no demand is dropped.
///
/// The stream has ended once `downstream` is nil (completion delivered or cancelled); scheduled
/// actions then deliver nothing. `upstreamDone` (no upstream events accepted) holds until the
/// subscription arrives, and again from the upstream's completion or any ending on: a value or
/// completion before the subscription (a precondition failure in Combine) is dropped, as is
/// anything after the end, and a subscription after the end is cancelled. Lock rule: nothing is called out while `lock` is held.
class ScheduledRelay<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription, OperatorIntrospection,
    @unchecked Sendable
{
    /// `ReceiveOn`, as Combine names `receive(on:)`'s subscription; each subclass gives its own.
    var description: String { "ReceiveOn" }

    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    enum DemandRoute {
        case upstream, local
    }

    let lock = Lock()
    let scheduler: Context
    let options: Context.SchedulerOptions?
    private let route: DemandRoute
    private var downstream: Downstream?
    /// The downstream, held for the subscription's whole life (never read) as Combine's
    /// `ReceiveOn`, `SubscribeOn` and `Delay` were recorded to hold it; nil for `throttle`,
    /// which lets it go at the end, as Combine's.
    private let keptDownstream: Downstream?
    private(set) var upstream: Subscription?
    /// The upstream subscription after its completion, until the completion is delivered: the
    /// demand a value delivered meanwhile returns still reaches it, as Combine's `ReceiveOn` was
    /// recorded to ask it. Guarded by `lock`.
    private var completedUpstream: Subscription?
    private(set) var upstreamDone = true
    /// True until the first subscription arrives, or until the stream ends without one.
    private var awaitingSubscription = true
    /// Outstanding downstream demand, counted only on the `.local` route.
    private var demand = Subscribers.Demand.none

    init(
        downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?,
        demand route: DemandRoute = .upstream, keepsDownstream: Bool = true
    ) {
        self.downstream = downstream
        self.keptDownstream = keepsDownstream ? downstream : nil
        self.scheduler = scheduler
        self.options = options
        self.route = route
    }

    // MARK: Subscriber

    func receive(subscription: Subscription) {
        lock.lock()
        guard awaitingSubscription, let target = downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        awaitingSubscription = false
        upstreamDone = false
        upstream = subscription
        lock.unlock()
        target.receive(subscription: self)
        if route == .local { subscription.request(.unlimited) }
        didSubscribe()
    }

    /// Runs once the downstream has its subscription (`timeout` starts its timer here).
    func didSubscribe() {}

    func receive(_ input: Input) -> Subscribers.Demand {
        guard lock.withLock({ !upstreamDone }) else { return .none }
        schedule { [self] in deliver(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard upstreamCompleted() else { return }
        schedule { [self] in finish(completion) }
    }

    /// Where deliveries happen: `scheduler.schedule(options:_:)`, unless overridden.
    func schedule(_ action: @escaping () -> Void) {
        scheduler.schedule(options: options, action)
    }

    // MARK: Subscription

    func request(_ more: Subscribers.Demand) {
        switch route {
        case .upstream: lock.withLock { upstream }?.request(more)
        case .local: lock.withLock { demand += more }
        }
    }

    func cancel() {
        lock.lock()
        let (target, source) = endLocked()
        lock.unlock()
        if let source { cancelUpstream(source) }
        withExtendedLifetime(target) {}
    }

    /// How `cancel()` reaches the upstream: at once, unless overridden.
    func cancelUpstream(_ subscription: Subscription) {
        subscription.cancel()
    }

    // MARK: For subclasses

    /// With `lock` held, on the `.local` route: true if the downstream has demand outstanding.
    final var hasDemandLocked: Bool { demand > 0 }

    /// No children, as Combine reflects most of these subscriptions; a subclass reflecting more
    /// overrides it.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The downstream and its outstanding demand (counted on the `.local` route), for a
    /// subclass's mirror.
    final var reflected: (downstream: Downstream?, demand: Subscribers.Demand) {
        lock.withLock { (downstream ?? keptDownstream, demand) }
    }

    /// The downstream, unless the stream has ended.
    final var liveDownstream: Downstream? {
        lock.withLock { downstream }
    }

    /// The upstream completed: marks it done and drops its subscription (later requests have
    /// nowhere to go; only the demand of a value delivered before the completion still reaches
    /// it, see `completedUpstream`). False if it was already done.
    @discardableResult
    final func upstreamCompleted() -> Bool {
        lock.lock()
        awaitingSubscription = false
        guard !upstreamDone else {
            lock.unlock()
            return false
        }
        upstreamDone = true
        completedUpstream = upstream
        upstream = nil
        lock.unlock()
        return true
    }

    /// Delivers `value` unless the stream has ended (or, on the `.local` route, no demand is
    /// outstanding); extra demand the downstream returns follows the route.
    final func deliver(_ value: Input) {
        lock.lock()
        guard let target = downstream, route == .upstream || demand > 0 else { return lock.unlock() }
        if route == .local { demand -= 1 }
        lock.unlock()
        let extra = target.receive(value)
        guard extra > 0 else { return }
        switch route {
        case .upstream: lock.withLock { upstream ?? (downstream == nil ? nil : completedUpstream) }?.request(extra)
        case .local: lock.withLock { demand += extra }
        }
    }

    /// Delivers `completion` unless the stream has already ended.
    final func finish(_ completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard let target = downstream else { return lock.unlock() }
        downstream = nil
        upstreamDone = true
        let finished = completedUpstream
        completedUpstream = nil
        lock.unlock()
        withExtendedLifetime(finished) {}
        target.receive(completion: completion)
    }

    /// With `lock` held: ends the stream, returning the downstream (nil if it had already ended)
    /// and the upstream subscription, to be dealt with after unlocking.
    final func endLocked() -> (Downstream?, Subscription?) {
        defer {
            downstream = nil
            upstream = nil
            completedUpstream = nil
            upstreamDone = true
            awaitingSubscription = false
        }
        return (downstream, upstream)
    }
}
