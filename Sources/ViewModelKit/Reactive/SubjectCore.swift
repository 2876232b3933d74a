import Synchronization

// The machinery shared by `PassthroughSubject`, `CurrentValueSubject`, `ObservableObjectPublisher`
// and `Published.Publisher`: a list of per-subscriber conduits, the terminal completion and the
// upstream subscriptions handed over by `send(subscription:)`.
//
// Delivery: `send` copies the conduit list under the core lock (a reference-count increment: the
// list is copy-on-write), releases it and offers the value to each conduit. Each conduit takes one
// unit of demand (lock-free) and calls its subscriber while holding its own recursive lock.
// Concurrent sends therefore queue up per subscriber (never two `receive` calls at once), and a
// send made from inside `receive` on the same thread re-enters the lock and is delivered
// depth-first, as in Combine.
//
// Storage: conduits sit in subscription order (Combine delivers in that order) in slots; each
// conduit knows its slot, so a cancel empties its slot in O(1). Holes are squeezed out once they
// outnumber the live conduits, which keeps both cancel and send amortised O(1) per subscriber.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    // Guards the `var`s below; never held while calling out or releasing a subscriber. A pthread
    // mutex in its own allocation (one per subject, so memory does not matter here): it measured
    // ~10 ns per send faster than an inline atomic flag next to the object's hot fields. The
    // `@exclusivity(unchecked)` vars are touched only under it, so the runtime check could never
    // fire; it cost a measurable share of row "5 subject→map→filter→removeDuplicates→sink".
    private let lock = Lock()
    @exclusivity(unchecked) private var conduits: ContiguousArray<Conduit<Output, Failure>?> = []
    @exclusivity(unchecked) private var live = 0
    @exclusivity(unchecked) private var completion: Subscribers.Completion<Failure>?
    /// `completion != nil`, readable in unspecialised code without the optional's generic
    /// metadata (the inlinable send path's out-of-line part reads it).
    @exclusivity(unchecked) private var completed = false
    @exclusivity(unchecked) private var upstreams: [Subscription] = []
    /// Only for replaying subjects (`CurrentValueSubject`, `Published`): the value a subscriber gets
    /// on its first demand, or after it missed a value for lack of demand. Guarded by `lock`.
    /// A slot of its own rather than an `Output?` field: storing into an `Output?` in
    /// unspecialised code (a client built without cross-module optimisation runs the `@Published`
    /// setter so) asked the runtime for `Optional<Output>`'s metadata on every set, about 310
    /// instructions (row "5 @Published set"); through the slot, `Output`'s own witnesses do it.
    private let current: UnsafeMutablePointer<Output>?
    let replays: Bool
    /// `ObservableObjectPublisher`'s rule, as Combine's: a subscriber that has ever requested
    /// demand receives every later value, whatever its demand now.
    let ignoresDemandOnceRequested: Bool
    /// Set on the first request from any subscriber: only then are upstream subscriptions (from
    /// `send(subscription:)`) asked for values, as Combine's subjects do.
    private let hasAnyDownstreamDemand = Atomic<Bool>(false)
    /// The conduits' description, as Combine names a subject's subscriptions.
    let name: StaticString

    init(replaying initial: Output?, name: StaticString, ignoresDemandOnceRequested: Bool = false) {
        if let initial {
            let slot = UnsafeMutablePointer<Output>.allocate(capacity: 1)
            slot.initialize(to: initial)
            current = slot
        } else {
            current = nil
        }
        replays = initial != nil
        self.ignoresDemandOnceRequested = ignoresDemandOnceRequested
        self.name = name
    }

    // MARK: - Values

    /// The replayed value (replaying cores only).
    var currentValue: Output {
        lock.lock()
        defer { lock.unlock() }
        return current!.pointee
    }

    /// The value to replay to a subscriber, if there is one.
    var replayValue: Output? {
        lock.lock()
        defer { lock.unlock() }
        return current?.pointee
    }

    /// Stores `value` (replaying cores) and then delivers it, as `CurrentValueSubject.send`.
    /// `Published` uses it too: the copy stored here is only what new subscribers are replayed;
    /// the property itself stores the value after delivery.
    @inline(__always)
    func storeAndSend(_ value: Output) {
        lock.lock()
        if completed {
            lock.unlock()
            return
        }
        if let current { current.pointee = value }
        if live == 0 {
            lock.unlock()
            return
        }
        let targets = conduits
        lock.unlock()
        for case let conduit? in targets {
            conduit.offer(value)
        }
    }

    /// Stores `value` even after completion (`CurrentValueSubject.value`'s setter, as Combine's),
    /// then delivers it unless the subject has completed.
    func store(_ value: Output) {
        lock.lock()
        guard completed else {
            lock.unlock()
            storeAndSend(value)
            return
        }
        // Replaying cores only (`CurrentValueSubject.value`).
        let replaced = current!.move()
        current!.initialize(to: value)
        lock.unlock()
        withExtendedLifetime(replaced) {}  // released outside the lock
    }

    // The inlinable send path (`PassthroughSubject.send`), split so that a client built without
    // cross-module optimisation runs it specialised: the lock and the list stay out of line in
    // `sendTargets()`; the loop over the conduits and the value's address are the client's.
    // See docs/DESIGN-NOTES.md, "Inlinable hot paths".

    /// Offers `value` to every subscriber, without storing it (`PassthroughSubject.send`).
    @inlinable @inline(__always)
    func sendWithoutStoring(_ value: Output) {
        let targets = sendTargets()
        if targets.isEmpty { return }
        withUnsafePointer(to: value) { address in
            for case let conduit? in targets {
                conduit.offer(at: UnsafeRawPointer(address))
            }
        }
    }

    /// Stores `value`, then offers it to every subscriber (`CurrentValueSubject.send`), as
    /// `storeAndSend`.
    @inlinable @inline(__always)
    func storeAndSendInline(_ value: Output) {
        withUnsafePointer(to: value) { address in
            let targets = storeForSend(at: UnsafeRawPointer(address))
            for case let conduit? in targets {
                conduit.offer(at: UnsafeRawPointer(address))
            }
        }
    }

    /// Stores the `Output` at `address` as the replayed value (unless the subject has completed)
    /// and returns the conduits it goes to (empty: completed, or nobody subscribed). Out of line:
    /// it takes the lock.
    @usableFromInline
    func storeForSend(at address: UnsafeRawPointer) -> ContiguousArray<Conduit<Output, Failure>?> {
        lock.lock()
        if completed {
            lock.unlock()
            return []
        }
        if let current { current.pointee = address.assumingMemoryBound(to: Output.self).pointee }
        if live == 0 {
            lock.unlock()
            return []
        }
        let targets = conduits
        lock.unlock()
        return targets
    }

    /// The conduits a value goes to now: empty once the subject has completed or when nobody
    /// is subscribed. Out of line: it takes the lock.
    @usableFromInline
    func sendTargets() -> ContiguousArray<Conduit<Output, Failure>?> {
        lock.lock()
        if completed || live == 0 {
            lock.unlock()
            return []
        }
        let targets = conduits
        lock.unlock()
        return targets
    }

    /// Delivers `value` without storing it (`ObservableObjectPublisher`).
    @inline(__always)
    func send(_ value: Output) {
        lock.lock()
        if completed || live == 0 {
            lock.unlock()
            return
        }
        let targets = conduits
        lock.unlock()
        for case let conduit? in targets {
            conduit.offer(value)
        }
    }

    /// True if anyone is subscribed (a hint; it may change at once).
    var hasSubscribers: Bool {
        lock.lock()
        defer { lock.unlock() }
        return live != 0
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
        completed = true
        let targets = conduits
        conduits = []
        live = 0
        let released = upstreams
        upstreams = []
        lock.unlock()
        for case let conduit? in targets {
            conduit.finish(completion)
        }
        withExtendedLifetime(released) {}  // upstream subscriptions are released here, outside the lock
    }

    /// Keeps `subscription` and asks it for unlimited values at once (`requestingAtOnce`, as
    /// Combine's `CurrentValueSubject`) or once any subscriber has requested demand (as
    /// Combine's `PassthroughSubject`).
    func send(subscription: Subscription, requestingAtOnce: Bool = false) {
        lock.lock()
        if completion != nil {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstreams.append(subscription)
        let demanded = requestingAtOnce || hasAnyDownstreamDemand.load(ordering: .acquiring)
        lock.unlock()
        if demanded { subscription.request(.unlimited) }
    }

    /// A subscriber requested demand: the first time, the upstream subscriptions are asked for
    /// unlimited values.
    @inline(__always)
    func acknowledgeDownstreamDemand() {
        if hasAnyDownstreamDemand.load(ordering: .relaxed) { return }
        acknowledgeFirstDownstreamDemand()
    }

    @inline(never)
    private func acknowledgeFirstDownstreamDemand() {
        lock.lock()
        if hasAnyDownstreamDemand.load(ordering: .relaxed) { return lock.unlock() }
        hasAnyDownstreamDemand.store(true, ordering: .releasing)
        let targets = upstreams
        lock.unlock()
        for upstream in targets { upstream.request(.unlimited) }
    }

    // MARK: - Subscribers

    /// Attaches `subscriber`: it gets a conduit as its subscription, or, if the subject has
    /// already completed, `Subscriptions.empty` followed by the completion.
    ///
    /// Inlinable, so that a client specialises the relay closure for its concrete subscriber
    /// without cross-module optimisation; the rest is out of line.
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit: Conduit<Output, Failure>
        if let direct = subscriber as? Subscribers.Sink<Output, Failure> {
            conduit = Conduit(core: self, sink: direct)
        } else {
            conduit = Conduit(core: self, relay: Conduit.relay(to: subscriber))
        }
        attach(conduit, subscriber)
    }

    /// The out-of-line part of `attach`: registers `conduit` and starts it, or ends at once.
    ///
    /// The conduit's delivery lock is taken before the conduit becomes visible to `send`: a
    /// completion (or value) sent from another thread between the registration and the
    /// subscription waits for `receive(subscription:)` to return, so the subscriber never sees
    /// its completion before its subscription.
    @usableFromInline
    func attach<S: Subscriber>(_ conduit: Conduit<Output, Failure>, _ subscriber: S)
    where S.Input == Output, S.Failure == Failure {
        guard conduit.start(subscriber, registeredBy: insert) else {
            let ended = lock.withLock { completion }
            conduit.abandon()
            subscriber.receive(subscription: Subscriptions.empty)
            if let ended { subscriber.receive(completion: ended) }
            return
        }
    }

    /// Adds `conduit` at the end; false if the subject has completed.
    func insert(_ conduit: Conduit<Output, Failure>) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if completed { return false }
        conduit.slot = UInt32(conduits.count)
        conduits.append(conduit)
        live += 1
        return true
    }

    /// Forgets a cancelled conduit. O(1) amortised.
    func detach(_ conduit: Conduit<Output, Failure>) {
        lock.lock()
        let slot = Int(conduit.slot)
        guard slot < conduits.count, conduits[slot] === conduit else {
            lock.unlock()
            return
        }
        conduits[slot] = nil
        live -= 1
        while let last = conduits.last, last == nil { conduits.removeLast() }
        let holes = conduits.count - live
        if holes >= 16 && holes > live { compactLocked() }
        lock.unlock()
    }

    private func compactLocked() {
        var packed = ContiguousArray<Conduit<Output, Failure>?>()
        packed.reserveCapacity(live)
        for case let conduit? in conduits {
            conduit.slot = UInt32(packed.count)
            packed.append(conduit)
        }
        conduits = packed
    }

    deinit {
        // Upstream subscriptions still held end with the subject.
        for upstream in upstreams { upstream.cancel() }
        if let current {
            current.deinitialize(count: 1)
            current.deallocate()
        }
    }
}

/// A subject's subscription to one subscriber.
///
/// The subscriber is erased into one closure built where its type is known (`attach`, which the
/// optimiser specialises for the concrete subscriber), so this class is generic only over the
/// subject's types: the send path makes one direct closure call per value, with no vtable hop
/// into unspecialised code and no generic-metadata lookups. Values and the completion reach the
/// closure by address, so it needs no enum or optional of a generic type.
@usableFromInline
final class Conduit<Output, Failure: Error>: Subscription, CustomStringConvertible, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    /// What a relay call carries: the address of an `Output` or of a completion.
    @usableFromInline
    enum Event {
        case value
        case completion
    }

    @usableFromInline
    typealias Relay = (UnsafeRawPointer, Event) -> Subscribers.Demand

    // Field order packs the small fields into one word after the lock (malloc size class 80).
    let demand = Atomic<Int>(0)
    // Held while calling the subscriber; guards `relay` and `sink`. A hand-made inline lock (see
    // `Locks.swift`): a pthread mutex would be a second allocation per subscription (row "6
    // subscription memory"). The `@exclusivity(unchecked)` vars below are touched only under
    // it (or, for `slot`, under the core's lock).
    let delivery = InlineRecursiveLock()
    // Set once by cancel or completion; read lock-free on the hot path.
    let terminated = Atomic<Bool>(false)
    // Set by cancel (not by completion): a thread leaving `receive` then drops the subscriber
    // for the canceller. A completion must not be treated so: it waits for the lock and
    // delivers itself, and must find the subscriber still there.
    let cancelled = Atomic<Bool>(false)
    // Replaying cores: false when the subscriber missed the latest value (or has had none yet).
    let deliveredCurrent = Atomic<Bool>(false)
    // The index in the core's list; guarded by the core's lock.
    @exclusivity(unchecked) var slot: UInt32 = 0
    // The subscription keeps its subject alive, as in Combine.
    let core: SubjectCore<Output, Failure>
    // Calls the subscriber; nil once released. Guarded by `delivery`.
    @exclusivity(unchecked) private(set) var relay: Relay?
    // The subscriber when it is a `Subscribers.Sink` (what `sink(...)` attaches), called
    // directly: the relay closure would cost a context allocation per subscription in
    // unspecialised code. Nil once released. Guarded by `delivery`.
    @exclusivity(unchecked) private(set) var sink: Subscribers.Sink<Output, Failure>?

    /// A conduit calling a `Subscribers.Sink` directly.
    @usableFromInline
    init(core: SubjectCore<Output, Failure>, sink: Subscribers.Sink<Output, Failure>) {
        self.core = core
        self.sink = sink
    }

    /// A conduit calling its subscriber through `relay`.
    @usableFromInline
    init(core: SubjectCore<Output, Failure>, relay: @escaping Relay) {
        self.core = core
        self.relay = relay
    }

    /// The closure that calls `downstream`; built in the client (inlinable), specialised there.
    @inlinable
    static func relay<S: Subscriber>(to downstream: S) -> Relay where S.Input == Output, S.Failure == Failure {
        { address, event in
            switch event {
            case .value:
                return downstream.receive(address.assumingMemoryBound(to: Output.self).pointee)
            case .completion:
                complete(downstream, address)
                return .none
            }
        }
    }

    // Out of line: in unspecialised code, naming the completion type costs a metadata lookup,
    // which must not happen on the value path.
    @usableFromInline @inline(never)
    static func complete<S: Subscriber>(_ downstream: S, _ address: UnsafeRawPointer)
    where S.Input == Output, S.Failure == Failure {
        downstream.receive(completion: address.assumingMemoryBound(to: Subscribers.Completion<Failure>.self).pointee)
    }

    @usableFromInline var description: String { core.name.description }

    /// The subject's name (`PassthroughSubject`, `CurrentValueSubject`, …), as Combine's.
    @usableFromInline var playgroundDescription: Any { description }

    private var replays: Bool { core.replays }

    /// Registers the conduit with `register` and hands the subscription to the subscriber, both
    /// under one hold of the delivery lock, so that nothing sent from another thread (a value or
    /// the completion) can overtake the subscription. False, and nothing called, if `register`
    /// refuses (the subject has completed). Lock order: delivery, then the core's lock.
    func start<S: Subscriber>(_ downstream: S, registeredBy register: (Conduit) -> Bool) -> Bool {
        delivery.lock()
        guard register(self) else {
            delivery.unlock()
            return false
        }
        downstream.receive(subscription: self)
        delivery.unlock()
        return true
    }

    /// `offer(_:)` for the inlinable send path: the value is at `address` (an `Output`). Out of
    /// line (demand, the delivery lock), but it never copies the value in unspecialised code
    /// unless a replaying subscriber missed it or the subscriber is a `Sink`.
    @usableFromInline
    final func offer(at address: UnsafeRawPointer) {
        if terminated.load(ordering: .relaxed) { return }
        guard demand.takeDemand() else {
            if replays { missed(address.assumingMemoryBound(to: Output.self).pointee) }
            return
        }
        deliver(at: address)
    }

    @inline(__always)
    private func deliver(at address: UnsafeRawPointer) {
        delivery.lock()
        if let direct = sink, !terminated.load(ordering: .acquiring) {
            if replays { deliveredCurrent.store(true, ordering: .relaxed) }
            _ = direct.receive(address.assumingMemoryBound(to: Output.self).pointee)
            delivery.unlock()
            if cancelled.load(ordering: .acquiring) { releaseDownstreamIfPossible() }
            return
        }
        guard let body = relay, !terminated.load(ordering: .acquiring) else {
            delivery.unlock()
            return
        }
        if replays { deliveredCurrent.store(true, ordering: .relaxed) }
        let more = body(address, .value)
        delivery.unlock()
        if more != .none { demand.addDemand(more) }
        if cancelled.load(ordering: .acquiring) { releaseDownstreamIfPossible() }
    }

    @inline(__always)
    func offer(_ value: Output) {
        if terminated.load(ordering: .relaxed) { return }
        guard demand.takeDemand() else {
            if replays { missed(value) }
            return
        }
        deliver(value)
    }

    /// A replaying subscription had no demand for `value`. Under the delivery lock, so that it
    /// serialises with `request` (which adds demand and checks `deliveredCurrent` under the same
    /// lock): either demand arrived meanwhile and `value` is delivered now, or the miss is
    /// recorded before `request` looks, and `request` replays the newest value.
    @inline(never)
    private func missed(_ value: Output) {
        delivery.lock()
        if demand.takeDemand() {
            deliver(value)
        } else {
            deliveredCurrent.store(false, ordering: .relaxed)
        }
        delivery.unlock()
    }

    @inline(__always)
    private func deliver(_ value: Output) {
        delivery.lock()
        if let direct = sink, !terminated.load(ordering: .acquiring) {
            if replays { deliveredCurrent.store(true, ordering: .relaxed) }
            _ = direct.receive(value)  // a sink's demand is unlimited: `.none` back
            delivery.unlock()
            if cancelled.load(ordering: .acquiring) { releaseDownstreamIfPossible() }
            return
        }
        guard let body = relay, !terminated.load(ordering: .acquiring) else {
            delivery.unlock()
            return
        }
        if replays { deliveredCurrent.store(true, ordering: .relaxed) }
        let more = withUnsafePointer(to: value) { body(UnsafeRawPointer($0), .value) }
        delivery.unlock()
        if more != .none { demand.addDemand(more) }
        // A cancel from another thread during `receive` could not take the lock: finish its job.
        if cancelled.load(ordering: .acquiring) { releaseDownstreamIfPossible() }
    }

    @usableFromInline func request(_ extra: Subscribers.Demand) {
        // Combine traps on a zero demand; asking for nothing is harmless here.
        guard extra != .none, !terminated.load(ordering: .acquiring) else { return }
        guard replays else {
            demand.addDemand(core.ignoresDemandOnceRequested ? .unlimited : extra)
            core.acknowledgeDownstreamDemand()
            return
        }
        // A replaying subject hands over its current value as soon as there is demand for it.
        // Demand, the read of the value and its delivery happen under one hold of the delivery
        // lock, as in Combine's conduit: a `send` from another thread waits for the replay and
        // comes after it, so the subscriber never ends on a value older than the subject's.
        delivery.lock()
        demand.addDemand(core.ignoresDemandOnceRequested ? .unlimited : extra)
        if !deliveredCurrent.load(ordering: .acquiring), let value = core.replayValue, demand.takeDemand() {
            deliveredCurrent.store(true, ordering: .relaxed)
            deliver(value)
        }
        delivery.unlock()
        // After the replay: an upstream asked now may send at once.
        core.acknowledgeDownstreamDemand()
    }

    func finish(_ completion: Subscribers.Completion<Failure>) {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        demand.clearDemand()
        delivery.lock()
        let body = relay
        let direct = sink
        relay = nil
        sink = nil
        if let direct {
            direct.receive(completion: completion)
        } else if let body {
            _ = withUnsafePointer(to: completion) { body(UnsafeRawPointer($0), .completion) }
        }
        delivery.unlock()
        withExtendedLifetime((body, direct)) {}  // the subscriber is released after unlocking
    }

    @usableFromInline func cancel() {
        guard !terminated.exchange(true, ordering: .acquiringAndReleasing) else { return }
        cancelled.store(true, ordering: .sequentiallyConsistent)
        demand.clearDemand()
        core.detach(self)
        releaseDownstreamIfPossible()
    }

    /// Never started (the subject had completed): drops the subscriber without calling it.
    func abandon() {
        terminated.store(true, ordering: .releasing)
        cancelled.store(true, ordering: .releasing)
        releaseDownstreamIfPossible()
    }

    /// After cancel: drops the subscriber. If another thread is inside `receive`, that thread
    /// does it when it leaves (it re-checks `cancelled` after unlocking).
    private func releaseDownstreamIfPossible() {
        guard delivery.tryLock() else { return }
        let body = relay
        let direct = sink
        relay = nil
        sink = nil
        delivery.unlock()
        withExtendedLifetime((body, direct)) {}
    }
}
