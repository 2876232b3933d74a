import Synchronization

/// The engine shared by `Merge`...`Merge8`, `MergeMany`, `FlatMap` and `SwitchToLatest`: several
/// inner subscriptions ("children") whose values are interleaved into one downstream.
///
/// Rules, as Combine's merging operators:
/// - Values reach the downstream one at a time, in arrival order, and never beyond its demand.
///   With unlimited downstream demand every child gets unlimited demand; otherwise each child is
///   asked for one value at a time, so at most one value per child waits in the buffer.
/// - Downstream calls are serialised by a drain loop, not by holding a lock: the thread that
///   finds the loop idle delivers everything that is ready; others only enqueue.
/// - The stream finishes once no more children can come (`sourcesOpen == false`), every child
///   has finished and the buffer is empty. The first failure, from a child or the outer
///   publisher, cancels everything else and is delivered at once (buffered values are dropped).
///
/// Protocol violations by a child or the outer publisher are absorbed, as Combine's merging
/// operators do: a value or completion before its subscription, or after its completion or the
/// end of the stream, is dropped (a value gets `.none`); a second subscription is cancelled, and
/// so is one arriving after a completion that came before any subscription (that source counts
/// as ended, though the stream still waits for it, as for a source that never subscribed);
/// values beyond a child's demand wait in the buffer for downstream demand; a request or
/// cancel after the end does nothing.
///
/// Cost per value: the hot path touches no generic container and sorts nothing. Children sit in
/// an array ordered by id (found by binary search; requests go out in id order); per-child
/// accounting is kept only while demand is finite (unlimited demand never becomes finite
/// again); a value that finds the loop idle, nothing queued and demand outstanding is handed
/// straight to the downstream without touching the queue; and requests to children are
/// collected only when something that could need one changed (`needsRequests`).
@usableFromInline
final class MergeCore<Downstream: Subscriber>: Subscription, OperatorIntrospection, @unchecked Sendable {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// Inline (one atomic word, no mutex object): held only for a few field updates, never while
    /// calling out, and taken twice per value; a pthread mutex cost ~200 instructions per value
    /// of `flatMap { Just }` (callgrind).
    private let lock = InlineLock()
    /// The downstream, boxed (see `DownstreamBox`); nil once the stream ended for it.
    @exclusivity(unchecked) private var sink: DownstreamBox<Downstream>?
    /// `merge`'s downstream, held for the subscription's whole life as Combine's `Merge` was
    /// recorded to hold it (never read); nil for `flatMap` and `switchToLatest`.
    private let keptSink: DownstreamBox<Downstream>?
    @exclusivity(unchecked) private var children: ContiguousArray<MergeChildState> = []
    @exclusivity(unchecked) private var nextID = 0
    /// Values waiting for demand or for the drain loop, with the id of the child each came from;
    /// `queueHead` is the next to deliver, `queued` how many wait. A delivered value's slot is
    /// set to nil at once, so the queue keeps alive only the values still waiting.
    @exclusivity(unchecked) private var queue: ContiguousArray<Output?> = []
    @exclusivity(unchecked) private var queueIDs: ContiguousArray<Int> = []
    @exclusivity(unchecked) private var queueHead = 0
    @exclusivity(unchecked) private var queued = 0
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    @exclusivity(unchecked) private var sourcesOpen: Bool
    @exclusivity(unchecked) private var failure: Failure?
    @exclusivity(unchecked) private var failed = false
    @exclusivity(unchecked) private var draining = false
    @exclusivity(unchecked) private var terminated = false
    /// Something changed that may call for requests to children.
    @exclusivity(unchecked) private var needsRequests = false
    @exclusivity(unchecked) private var outer: Subscription?
    /// The outer publisher's state (FlatMap, SwitchToLatest): `outerWaiting` until its
    /// subscription, `outerAttached` while it may send, `outerEnded` after its completion.
    /// Atomic so that the outer's values are checked before `transform` runs, without the lock.
    private let outerState = Atomic<Int>(MergeCore.outerWaiting)
    static var outerWaiting: Int { 0 }
    static var outerAttached: Int { 1 }
    static var outerEnded: Int { 2 }
    /// FlatMap with a finite `maxPublishers`: each finished child asks the outer for one more.
    private let replenishOuter: Bool
    /// Which operator this engine serves, for its description (one byte, beside the flags).
    private let kind: Kind

    /// The operators built on the engine, named as Combine names their subscriptions.
    @usableFromInline
    enum Kind: UInt8 {
        case merge, flatMap, switchToLatest
    }

    @usableFromInline
    init(downstream: Downstream, sourcesOpen: Bool, replenishOuter: Bool = false, kind: Kind = .merge) {
        self.kind = kind
        let box = DownstreamBox(downstream)
        self.sink = box
        self.keptSink = kind == .merge ? box : nil
        self.sourcesOpen = sourcesOpen
        self.replenishOuter = replenishOuter
    }

    /// `Merge`, `FlatMap` or `SwitchToLatest`, as Combine's.
    @usableFromInline var description: String {
        switch kind {
        case .merge: "Merge"
        case .flatMap: "FlatMap"
        case .switchToLatest: "SwitchToLatest"
        }
    }

    // MARK: Set-up

    /// Hands this subscription to the downstream (outside any lock).
    @usableFromInline
    func sendSubscription() {
        lock.lock()
        let box = sink
        lock.unlock()
        guard let target = box else { return }
        target.downstream.receive(subscription: self)
    }

    /// Registers a child slot; `nil` once the stream has ended.
    @usableFromInline
    func addChild() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard !terminated else { return nil }
        defer { nextID += 1 }
        children.append(MergeChildState(id: nextID))
        return nextID
    }

    /// SwitchToLatest: cancels every current child, drops their buffered values, and registers
    /// a new slot; `nil` once the stream has ended.
    func replaceChildren() -> Int? {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return nil
        }
        let old = children
        let dropped = takeQueueLocked()
        let id = nextID
        nextID += 1
        children = [MergeChildState(id: id)]
        lock.unlock()
        for child in old { child.subscription?.cancel() }
        withExtendedLifetime(dropped) {}
        return id
    }

    /// The subscriber to attach to child `id`'s publisher.
    @usableFromInline
    func child(_ id: Int) -> MergeChild<Downstream> {
        MergeChild(core: self, id: id)
    }

    /// FlatMap / SwitchToLatest: remembers the outer subscription so that cancel reaches it.
    /// Returns false, having cancelled `subscription`, when it is not the outer's first one or
    /// the stream has ended: the caller then does nothing more with it.
    @usableFromInline
    func setOuter(_ subscription: Subscription) -> Bool {
        lock.lock()
        if outerState.load(ordering: .relaxed) != MergeCore.outerWaiting {
            lock.unlock()
            subscription.cancel()
            return false
        }
        outerState.store(MergeCore.outerAttached, ordering: .relaxed)
        if terminated {
            lock.unlock()
            subscription.cancel()
            return false
        }
        outer = subscription
        lock.unlock()
        return true
    }

    /// Whether the outer publisher may send now (subscribed, not completed): its values and
    /// completion are dropped otherwise.
    @usableFromInline
    var outerIsAttached: Bool { outerState.load(ordering: .relaxed) == MergeCore.outerAttached }

    /// Under the lock: a completion of the outer publisher may be handled (true), or is a
    /// violation (false; one before the subscription still makes a later subscription junk).
    private func takeOuterCompletionLocked() -> Bool {
        let state = outerState.load(ordering: .relaxed)
        if state == MergeCore.outerWaiting { outerState.store(MergeCore.outerEnded, ordering: .relaxed) }
        return state == MergeCore.outerAttached
    }

    /// The outer publisher finished: no more children will come.
    @usableFromInline
    func outerFinished() {
        lock.lock()
        guard takeOuterCompletionLocked() else { return lock.unlock() }
        outerState.store(MergeCore.outerEnded, ordering: .relaxed)
        outer = nil
        sourcesOpen = false
        lock.unlock()
        drain()
    }

    /// The outer publisher failed.
    @usableFromInline
    func outerFailed(_ error: Failure) {
        lock.lock()
        guard takeOuterCompletionLocked() else { return lock.unlock() }
        outerState.store(MergeCore.outerEnded, ordering: .relaxed)
        outer = nil
        if !failed {
            failed = true
            failure = error
        }
        lock.unlock()
        drain()
    }

    /// FlatMap: a child that would deliver `value` and finish as soon as it is subscribed
    /// (`Just`), handled without a child slot, subscriber or subscription, whenever that is
    /// exactly what subscribing it would do: downstream demand is outstanding (unlimited, or
    /// finite and positive, when the child's first request would go out at once). The value goes
    /// straight downstream if nothing waits (taking one unit of finite demand), else joins the
    /// queue; then the outer is replenished, as after a child finished. Returns false, changing
    /// nothing, while demand is zero: the child must then be subscribed and wait its turn for
    /// demand among the others. True if handled (also when the stream has ended: the value is
    /// dropped, as a child's would be).
    @usableFromInline
    func deliverInline(_ value: Output) -> Bool {
        lock.lock()
        if terminated {
            lock.unlock()
            return true
        }
        let finite = demand != .unlimited
        if finite, demand == .none {
            lock.unlock()
            return false
        }
        if !draining, queued == 0, !failed, let target = sink {
            draining = true
            if finite {
                demand -= 1
                needsRequests = true
            }
            lock.unlock()
            let extra = target.downstream.receive(value)
            lock.lock()
            if finite, extra > 0 { demand += extra }
            endDirectDeliveryLocked()
        } else {
            enqueueInlineLocked(value)
        }
        // Tested first: reading `outer` copies an existential (~200 instructions with its
        // destroys), which only a finite `maxPublishers` needs.
        if replenishOuter { requestOneMoreFromOuter() }
        return true
    }

    /// `deliverInline` when the value must wait (lock held; returns with it released). Out of
    /// line: copying a value of the generic type needs its metadata, which the caller's direct
    /// path then does not look up per value.
    @inline(never)
    private func enqueueInlineLocked(_ value: Output) {
        queue.append(value)
        queueIDs.append(-1)  // no child: nothing to account when it is delivered
        queued += 1
        lock.unlock()
        drain()
    }

    /// FlatMap with a finite `maxPublishers`: one more value from the outer, as after a child
    /// finished (outside the lock).
    private func requestOneMoreFromOuter() {
        lock.lock()
        let target = outer
        lock.unlock()
        target?.request(.max(1))
    }

    // MARK: Child events

    @usableFromInline
    func childReceive(subscription: Subscription, id: Int) {
        lock.lock()
        guard !terminated, let index = indexLocked(of: id), !children[index].subscribed,
            !children[index].completedUnsubscribed
        else {
            lock.unlock()
            subscription.cancel()
            return
        }
        children[index].subscription = subscription
        children[index].subscribed = true
        // Only this child's demand changes: the others are covered already.
        var initial = Subscribers.Demand.none
        if demand == .unlimited {
            initial = .unlimited
        } else if demand > 0, children[index].buffered == 0, children[index].outstanding == .none {
            initial = .max(1)
        }
        children[index].outstanding = initial
        lock.unlock()
        if initial > 0 { subscription.request(initial) }
    }

    @usableFromInline
    func childReceive(_ value: Output, id: Int) -> Subscribers.Demand {
        lock.lock()
        // Not subscribed yet, or already finished (its slot is gone): a violation, dropped.
        guard !terminated, let index = indexLocked(of: id), children[index].subscribed else {
            lock.unlock()
            return .none
        }
        let finite = demand != .unlimited
        if finite { children[index].outstanding -= 1 }
        if !draining, queued == 0, !failed, demand > 0, let target = sink {
            // Fast path: nothing waits, so this value goes straight to the downstream.
            draining = true
            demand -= 1
            if finite { needsRequests = true }
            lock.unlock()
            let extra = target.downstream.receive(value)
            lock.lock()
            if extra > 0 {
                demand += extra
                needsRequests = true
            }
            endDirectDeliveryLocked()
            return .none
        }
        if finite { children[index].buffered += 1 }
        queue.append(value)
        queueIDs.append(id)
        queued += 1
        lock.unlock()
        drain()
        return .none
    }

    @usableFromInline
    func childReceive(completion: Subscribers.Completion<Failure>, id: Int) {
        lock.lock()
        guard !terminated, let index = indexLocked(of: id) else {
            lock.unlock()
            return
        }
        guard children[index].subscribed else {
            // Before its subscription: dropped, and a subscription after it will be cancelled.
            children[index].completedUnsubscribed = true
            lock.unlock()
            return
        }
        children.remove(at: index)
        var replenish: Subscription?
        switch completion {
        case .failure(let error):
            if !failed {
                failed = true
                failure = error
            }
        case .finished:
            if replenishOuter { replenish = outer }
        }
        lock.unlock()
        replenish?.request(.max(1))
        drain()
    }

    // MARK: Subscription

    @usableFromInline
    func request(_ more: Subscribers.Demand) {
        lock.lock()
        guard !terminated, more > 0 else { return lock.unlock() }
        demand += more
        needsRequests = true
        lock.unlock()
        drain()
    }

    @usableFromInline
    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        let (subscriptions, target, dropped) = terminateLocked()
        lock.unlock()
        for subscription in subscriptions { subscription.cancel() }
        withExtendedLifetime((target, dropped)) {}
    }

    // MARK: Delivery

    /// Delivers whatever is deliverable; returns at once if another call is already doing it.
    @usableFromInline
    func drain() {
        lock.lock()
        guard !draining, !terminated else { return lock.unlock() }
        draining = true
        drainLocked()
    }

    /// The drain loop: called with the lock held and `draining` set; returns with the lock
    /// released and `draining` cleared (or the stream ended).
    private func drainLocked() {
        while true {
            if terminated {
                draining = false
                lock.unlock()
                return
            }
            if failed, let error = failure {
                let (subscriptions, target, dropped) = terminateLocked()
                lock.unlock()
                for subscription in subscriptions { subscription.cancel() }
                withExtendedLifetime(dropped) {}
                target?.downstream.receive(completion: .failure(error))
                return
            }
            if demand > 0, queued > 0, let target = sink {
                let value = queue[queueHead].unsafelyUnwrapped
                queue[queueHead] = nil  // the queue must not keep a delivered value alive
                let id = queueIDs[queueHead]
                queueHead += 1
                queued -= 1
                if queued == 0 {
                    queue.removeAll(keepingCapacity: true)
                    queueIDs.removeAll(keepingCapacity: true)
                    queueHead = 0
                } else if queueHead >= 64, queueHead * 2 >= queue.count {
                    // A queue that never empties drops its delivered front (amortised O(1)), so
                    // it holds what waits, not everything ever delivered.
                    queue.removeFirst(queueHead)
                    queueIDs.removeFirst(queueHead)
                    queueHead = 0
                }
                if demand != .unlimited, let index = indexLocked(of: id) {
                    children[index].buffered -= 1
                    needsRequests = true
                }
                demand -= 1
                lock.unlock()
                let extra = target.downstream.receive(value)
                lock.lock()
                if extra > 0 {
                    demand += extra
                    needsRequests = true
                }
                continue
            }
            if queued == 0, !sourcesOpen, children.isEmpty {
                let (subscriptions, target, dropped) = terminateLocked()
                lock.unlock()
                for subscription in subscriptions { subscription.cancel() }
                withExtendedLifetime(dropped) {}
                target?.downstream.receive(completion: .finished)
                return
            }
            let requests = collectRequestsLocked()
            draining = false
            lock.unlock()
            for (target, amount) in requests { target.request(amount) }
            return
        }
    }

    /// After a value went straight to the downstream (lock held, `draining` set): when nothing
    /// waits, no request is due and the stream goes on, ends the drain here; otherwise runs the
    /// drain loop. The check is the drain loop's own, made without entering it: the loop's
    /// entry costs two generic metadata lookups in code the client cannot specialise (callgrind),
    /// more than the rest of a `flatMap { Just }` value's trip.
    @inline(__always)
    private func endDirectDeliveryLocked() {
        if !terminated, !failed, queued == 0, !needsRequests || demand == .none, sourcesOpen || !children.isEmpty {
            draining = false
            lock.unlock()
            return
        }
        drainLocked()
    }

    /// Under the lock: the index of child `id`, if it is still there (children are in id order).
    /// Ids are dense until a child finishes, so child `id` is usually at index `id` (merge of a
    /// fixed list, flatMap over a sequence): checked first, before the binary search.
    @inline(__always)
    private func indexLocked(of id: Int) -> Int? {
        if id >= 0, id < children.count, children[id].id == id { return id }
        var low = 0
        var high = children.count
        while low < high {
            let middle = (low + high) / 2
            if children[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < children.count && children[low].id == id ? low : nil
    }

    /// Under the lock: empties the queue, returning its values (released after unlocking).
    private func takeQueueLocked() -> ContiguousArray<Output?> {
        defer {
            queue = []
            queueIDs = []
            queueHead = 0
            queued = 0
        }
        return queue
    }

    /// Under the lock: marks the stream ended and takes out what must be cancelled or released
    /// after unlocking.
    private func terminateLocked() -> ([Subscription], DownstreamBox<Downstream>?, ContiguousArray<Output?>) {
        terminated = true
        var subscriptions = children.compactMap { $0.subscription }
        if let outer { subscriptions.append(outer) }
        outer = nil
        children = []
        let target = sink
        sink = nil
        return (subscriptions, target, takeQueueLocked())
    }

    /// Under the lock: the requests to send to children so that demand is covered, in child
    /// order. Only when `needsRequests` (and demand is outstanding).
    private func collectRequestsLocked() -> [(Subscription, Subscribers.Demand)] {
        guard needsRequests, demand > 0 else { return [] }
        needsRequests = false
        var requests: [(Subscription, Subscribers.Demand)] = []
        for index in children.indices {
            guard let subscription = children[index].subscription else { continue }
            if demand == .unlimited {
                guard children[index].outstanding != .unlimited else { continue }
                children[index].outstanding = .unlimited
                requests.append((subscription, .unlimited))
            } else {
                guard children[index].outstanding == .none, children[index].buffered == 0 else { continue }
                children[index].outstanding = .max(1)
                requests.append((subscription, .max(1)))
            }
        }
        return requests
    }
}

/// One child's bookkeeping in `MergeCore`. Not generic, so reading and writing it needs no
/// generic metadata.
struct MergeChildState {
    let id: Int
    var subscription: Subscription?
    /// `subscription != nil`, as a flag: testing the optional existential copied the whole
    /// state (an outlined copy and destroy, ~180 instructions per merged value).
    var subscribed = false
    var outstanding = Subscribers.Demand.none
    var buffered = 0
    /// It sent a completion before any subscription (a violation): a later one is cancelled.
    var completedUnsubscribed = false

    init(id: Int) {
        self.id = id
    }
}

/// The subscriber `MergeCore` attaches to one child publisher. Inlinable (it only forwards to
/// the engine, which stays out of line), so that the child publisher's delivery into it is
/// specialised in the client that subscribes it (`subscribeMerged`, `FlatMap`).
@usableFromInline
struct MergeChild<Downstream: Subscriber>: Subscriber {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let core: MergeCore<Downstream>
    @usableFromInline let id: Int
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(core: MergeCore<Downstream>, id: Int) {
        self.core = core
        self.id = id
    }

    @inlinable
    func receive(subscription: Subscription) {
        core.childReceive(subscription: subscription, id: id)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        core.childReceive(input, id: id)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        core.childReceive(completion: completion, id: id)
    }
}

/// Subscribes a fixed list of upstreams (each given as its `subscribe` method) into one
/// `MergeCore`, upstream number i into slot i. Every slot is registered before the first
/// upstream is subscribed, so the stream cannot finish before all of them are attached.
/// Inlinable (with the merge operators' `receive(subscriber:)` and `MergeChild`'s methods), so
/// that a client built without flags subscribes its upstreams with `MergeChild` specialised
/// for its own types: their value path into the engine then runs specialised.
@inlinable
func subscribeMerged<S: Subscriber>(_ subscriber: S, _ upstreams: [(MergeChild<S>) -> Void]) {
    let core = MergeCore(downstream: subscriber, sourcesOpen: false, replenishOuter: false)
    for _ in upstreams { _ = core.addChild() }
    core.sendSubscription()
    for (index, subscribe) in upstreams.enumerated() { subscribe(core.child(index)) }
    core.drain()
}
