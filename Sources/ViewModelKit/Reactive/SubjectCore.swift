import Synchronization

// The machinery shared by `PassthroughSubject`, `CurrentValueSubject`, `ObservableObjectPublisher`
// and `Published.Publisher`: a list of per-subscriber conduits, the terminal completion and the
// upstream subscriptions handed over by `send(subscription:)`.
//
// Delivery: `send` copies the conduit list under the core lock, releases it and offers the value to
// each conduit. Each conduit takes one unit of demand (lock-free) and calls its subscriber while
// holding its own recursive lock. Concurrent sends therefore queue up per subscriber (never two
// `receive` calls at once), and a send made from inside `receive` on the same thread re-enters the
// lock and is delivered depth-first, as in Combine.
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    private let lock = UnfairLock()
    private var conduits: ContiguousArray<Conduit<Output, Failure>> = []
    private var completion: Subscribers.Completion<Failure>?
    private var upstreams: [Subscription] = []
    /// Only for replaying subjects (`CurrentValueSubject`, `Published`): the value a subscriber gets
    /// on its first demand, or after it missed a value for lack of demand.
    private var current: Output?
    let replays: Bool

    init(replaying initial: Output?) {
        current = initial
        replays = initial != nil
    }

    // MARK: - Values

    /// The replayed value (replaying cores only).
    var currentValue: Output {
        lock.lock()
        defer { lock.unlock() }
        return current!
    }

    /// The value to replay to a subscriber, if there is one.
    var replayValue: Output? {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Stores `value` (replaying cores) and then delivers it, as `CurrentValueSubject.send`.
    /// `Published` uses it too: the copy stored here is only what new subscribers are replayed;
    /// the property itself stores the value after delivery.
    @inline(__always)
    func storeAndSend(_ value: Output) {
        lock.lock()
        if completion != nil {
            lock.unlock()
            return
        }
        if replays { current = value }
        let targets = conduits
        lock.unlock()
        for conduit in targets {
            conduit.offer(value)
        }
    }

    /// Delivers `value` without storing it (`ObservableObjectPublisher`).
    @inline(__always)
    func send(_ value: Output) {
        lock.lock()
        if completion != nil || conduits.isEmpty {
            lock.unlock()
            return
        }
        let targets = conduits
        lock.unlock()
        for conduit in targets {
            conduit.offer(value)
        }
    }

    /// True if anyone is subscribed (a hint; it may change at once).
    var hasSubscribers: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !conduits.isEmpty
    }

    // MARK: - Completion and upstreams

    /// Ends the stream: every current subscriber gets `completion`, later subscribers get it at
    /// once, later sends are ignored. A second completion is ignored.
    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        if self.completion != nil {
            lock.unlock()
            return
        }
        self.completion = completion
        let targets = conduits
        conduits = []
        let released = upstreams
        upstreams = []
        lock.unlock()
        for conduit in targets {
            conduit.finish(completion)
        }
        withExtendedLifetime(released) {}  // upstream subscriptions are released here, outside the lock
    }

    /// Keeps `subscription` and asks it for unlimited values, as a Combine subject does.
    func send(subscription: Subscription) {
        lock.lock()
        if completion != nil {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams.append(subscription)
        lock.unlock()
        subscription.request(.unlimited)
    }

    // MARK: - Subscribers

    /// Attaches `subscriber`: it gets a conduit as its subscription, or, if the subject has
    /// already completed, `Subscriptions.empty` followed by the completion.
    func attach<S: Subscriber>(_ subscriber: S, name: String)
    where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(core: self, downstream: subscriber, name: name)
        conduits.append(conduit)
        lock.unlock()
        conduit.start(subscriber)
    }

    /// Forgets a cancelled conduit.
    func detach(_ conduit: Conduit<Output, Failure>) {
        lock.lock()
        if let index = conduits.firstIndex(where: { $0 === conduit }) {
            conduits.remove(at: index)
        }
        lock.unlock()
    }

    deinit {
        // Upstream subscriptions still held end with the subject.
        for upstream in upstreams { upstream.cancel() }
    }
}

/// A subject's subscription to one subscriber.
///
/// The subscriber is erased into closures built where its type is known (`attach`), so this
/// class is generic only over the subject's types: the send path makes direct calls, with no
/// virtual dispatch or type-metadata lookups per value.
final class Conduit<Output, Failure: Error>: Subscription, CustomStringConvertible, @unchecked Sendable {
    private let demand = AtomicDemand()
    // Held while calling the subscriber; guards the closures below.
    private let delivery = RecursiveLock()
    private var receiveValue: ((Output) -> Subscribers.Demand)?
    private var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    // The subscription keeps its subject alive, as in Combine.
    private let core: SubjectCore<Output, Failure>
    private let replays: Bool
    // Set once by cancel or completion; read lock-free on the hot path.
    private let terminated = Atomic<Bool>(false)
    // Replaying cores: false when the subscriber missed the latest value (or has had none yet).
    private let deliveredCurrent = Atomic<Bool>(false)
    private let name: String

    init<S: Subscriber>(core: SubjectCore<Output, Failure>, downstream: S, name: String)
    where S.Input == Output, S.Failure == Failure {
        self.core = core
        self.replays = core.replays
        self.receiveValue = { downstream.receive($0) }
        self.receiveCompletion = { downstream.receive(completion: $0) }
        self.name = name
    }

    var description: String { name }

    /// Hands the subscription to the subscriber, under the delivery lock so that no value can
    /// overtake it from another thread.
    func start<S: Subscriber>(_ downstream: S) {
        delivery.lock()
        downstream.receive(subscription: self)
        delivery.unlock()
    }

    @inline(__always)
    func offer(_ value: Output) {
        if terminated.load(ordering: .relaxed) { return }
        guard demand.take() else {
            if replays { deliveredCurrent.store(false, ordering: .relaxed) }
            return
        }
        deliver(value)
    }

    @inline(__always)
    private func deliver(_ value: Output) {
        delivery.lock()
        guard let body = receiveValue, !terminated.load(ordering: .acquiring) else {
            delivery.unlock()
            return
        }
        if replays { deliveredCurrent.store(true, ordering: .relaxed) }
        let more = body(value)
        delivery.unlock()
        if more != .none { demand.add(more) }
        // A cancel from another thread during `receive` could not take the lock: finish its job.
        if terminated.load(ordering: .acquiring) { releaseDownstreamIfPossible() }
    }

    func request(_ extra: Subscribers.Demand) {
        // Combine traps on a zero demand; asking for nothing is harmless here.
        guard extra != .none, !terminated.load(ordering: .acquiring) else { return }
        demand.add(extra)
        // A replaying subject hands over its current value as soon as there is demand for it.
        if replays, !deliveredCurrent.load(ordering: .acquiring), let value = core.replayValue,
            demand.take()
        {
            deliveredCurrent.store(true, ordering: .relaxed)
            deliver(value)
        }
    }

    func finish(_ completion: Subscribers.Completion<Failure>) {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        demand.clear()
        delivery.lock()
        let body = receiveCompletion
        let values = receiveValue
        receiveCompletion = nil
        receiveValue = nil
        body?(completion)
        delivery.unlock()
        withExtendedLifetime((body, values)) {}  // the subscriber is released after unlocking
    }

    func cancel() {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        demand.clear()
        core.detach(self)
        releaseDownstreamIfPossible()
    }

    /// After cancel: drops the subscriber. If another thread is inside `receive`, that thread
    /// does it when it leaves (it re-checks `terminated` after unlocking).
    private func releaseDownstreamIfPossible() {
        guard delivery.tryLock() else { return }
        let values = receiveValue
        let completion = receiveCompletion
        receiveValue = nil
        receiveCompletion = nil
        delivery.unlock()
        withExtendedLifetime((values, completion)) {}
    }
}
