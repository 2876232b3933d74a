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
final class MergeCore<Downstream: Subscriber>: Subscription, @unchecked Sendable {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct Child {
        var subscription: Subscription?
        var outstanding = Subscribers.Demand.none
        var buffered = 0
    }

    private let lock = Lock()
    private var downstream: Downstream?
    private var children: [Int: Child] = [:]
    private var nextID = 0
    private var queue: [(id: Int, value: Output)] = []
    private var demand = Subscribers.Demand.none
    private var sourcesOpen: Bool
    private var failure: Failure?
    private var draining = false
    private var terminated = false
    private var outer: Subscription?
    /// FlatMap with a finite `maxPublishers`: each finished child asks the outer for one more.
    private let replenishOuter: Bool

    init(downstream: Downstream, sourcesOpen: Bool, replenishOuter: Bool = false) {
        self.downstream = downstream
        self.sourcesOpen = sourcesOpen
        self.replenishOuter = replenishOuter
    }

    // MARK: Set-up

    /// Hands this subscription to the downstream (outside any lock).
    func sendSubscription() {
        guard let target = lock.withLock({ downstream }) else { return }
        target.receive(subscription: self)
    }

    /// Registers a child slot; `nil` once the stream has ended.
    func addChild() -> Int? {
        lock.withLock {
            guard !terminated else { return nil }
            defer { nextID += 1 }
            children[nextID] = Child()
            return nextID
        }
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
        let dropped = queue
        children = [:]
        queue.removeAll()
        let id = nextID
        nextID += 1
        children[id] = Child()
        lock.unlock()
        for child in old.values { child.subscription?.cancel() }
        withExtendedLifetime(dropped) {}
        return id
    }

    /// The subscriber to attach to child `id`'s publisher.
    func child(_ id: Int) -> MergeChild<Downstream> {
        MergeChild(core: self, id: id)
    }

    /// FlatMap / SwitchToLatest: remembers the outer subscription so that cancel reaches it.
    func setOuter(_ subscription: Subscription) {
        lock.lock()
        if terminated || outer != nil {
            lock.unlock()
            subscription.cancel()
            return
        }
        outer = subscription
        lock.unlock()
    }

    /// The outer publisher finished: no more children will come.
    func outerFinished() {
        lock.withLock {
            outer = nil
            sourcesOpen = false
        }
        drain()
    }

    /// The outer publisher failed.
    func outerFailed(_ error: Failure) {
        lock.withLock {
            outer = nil
            if failure == nil { failure = error }
        }
        drain()
    }

    // MARK: Child events

    func childReceive(subscription: Subscription, id: Int) {
        lock.lock()
        guard !terminated, children[id] != nil, children[id]?.subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        children[id]?.subscription = subscription
        let requests = collectRequests()
        lock.unlock()
        for (target, amount) in requests { target.request(amount) }
    }

    func childReceive(_ value: Output, id: Int) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, var child = children[id] else {
            lock.unlock()
            return .none
        }
        child.outstanding -= 1
        child.buffered += 1
        children[id] = child
        queue.append((id, value))
        lock.unlock()
        drain()
        return .none
    }

    func childReceive(completion: Subscribers.Completion<Failure>, id: Int) {
        lock.lock()
        guard !terminated, children.removeValue(forKey: id) != nil else {
            lock.unlock()
            return
        }
        var replenish: Subscription?
        switch completion {
        case .failure(let error):
            if failure == nil { failure = error }
        case .finished:
            if replenishOuter { replenish = outer }
        }
        lock.unlock()
        replenish?.request(.max(1))
        drain()
    }

    // MARK: Subscription

    func request(_ more: Subscribers.Demand) {
        lock.withLock {
            guard !terminated else { return }
            demand += more
        }
        drain()
    }

    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        let (subscriptions, target, dropped) = terminate()
        lock.unlock()
        for subscription in subscriptions { subscription.cancel() }
        withExtendedLifetime((target, dropped)) {}
    }

    // MARK: Delivery

    /// Delivers whatever is deliverable; returns at once if another call is already doing it.
    func drain() {
        lock.lock()
        guard !draining, !terminated else { return lock.unlock() }
        draining = true
        while true {
            if terminated {
                draining = false
                lock.unlock()
                return
            }
            if let error = failure {
                let (subscriptions, target, dropped) = terminate()
                lock.unlock()
                for subscription in subscriptions { subscription.cancel() }
                withExtendedLifetime(dropped) {}
                target?.receive(completion: .failure(error))
                return
            }
            if demand > 0, !queue.isEmpty, let target = downstream {
                let (id, value) = queue.removeFirst()
                children[id]?.buffered -= 1
                demand -= 1
                lock.unlock()
                let extra = target.receive(value)
                lock.lock()
                demand += extra
                continue
            }
            if queue.isEmpty, !sourcesOpen, children.isEmpty {
                let (subscriptions, target, dropped) = terminate()
                lock.unlock()
                for subscription in subscriptions { subscription.cancel() }
                withExtendedLifetime(dropped) {}
                target?.receive(completion: .finished)
                return
            }
            let requests = collectRequests()
            draining = false
            lock.unlock()
            for (target, amount) in requests { target.request(amount) }
            return
        }
    }

    /// Under the lock: marks the stream ended and takes out what must be cancelled or released
    /// after unlocking.
    private func terminate() -> ([Subscription], Downstream?, [(id: Int, value: Output)]) {
        terminated = true
        var subscriptions = children.keys.sorted().compactMap { children[$0]?.subscription }
        if let outer { subscriptions.append(outer) }
        outer = nil
        children = [:]
        let target = downstream
        downstream = nil
        let dropped = queue
        queue = []
        return (subscriptions, target, dropped)
    }

    /// Under the lock: the requests to send to children so that demand is covered.
    private func collectRequests() -> [(Subscription, Subscribers.Demand)] {
        guard demand > 0 else { return [] }
        var requests: [(Subscription, Subscribers.Demand)] = []
        for id in children.keys.sorted() {
            guard var child = children[id], let subscription = child.subscription else { continue }
            if demand == .unlimited {
                guard child.outstanding != .unlimited else { continue }
                child.outstanding = .unlimited
                requests.append((subscription, .unlimited))
            } else {
                guard child.outstanding == .none, child.buffered == 0 else { continue }
                child.outstanding = .max(1)
                requests.append((subscription, .max(1)))
            }
            children[id] = child
        }
        return requests
    }
}

/// The subscriber `MergeCore` attaches to one child publisher.
struct MergeChild<Downstream: Subscriber>: Subscriber {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let core: MergeCore<Downstream>
    let id: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: Subscription) {
        core.childReceive(subscription: subscription, id: id)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.childReceive(input, id: id)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.childReceive(completion: completion, id: id)
    }
}

/// Subscribes a fixed list of upstreams (each given as its `subscribe` method) into one
/// `MergeCore`, upstream number i into slot i. Every slot is registered before the first
/// upstream is subscribed, so the stream cannot finish before all of them are attached.
func subscribeMerged<S: Subscriber>(_ subscriber: S, _ upstreams: [(MergeChild<S>) -> Void]) {
    let core = MergeCore(downstream: subscriber, sourcesOpen: false)
    for _ in upstreams { _ = core.addChild() }
    core.sendSubscription()
    for (index, subscribe) in upstreams.enumerated() { subscribe(core.child(index)) }
    core.drain()
}
