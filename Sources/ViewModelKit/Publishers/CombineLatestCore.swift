/// The engine of `CombineLatest`, `CombineLatest3` and `CombineLatest4`: N inputs whose latest
/// values are combined, type-erased to `Any` and rebuilt into a tuple by `combine`.
///
/// Rules, as Combine's `combineLatest`:
/// - Nothing is emitted until every input has produced a value; afterwards each new input value
///   produces one combination of the latest values.
/// - Downstream demand is forwarded to every input. A value that cannot form a combination yet
///   is replaced by asking that input for one more. Without downstream demand only the newest
///   combination is kept, and it is delivered when demand arrives (never more than requested).
/// - Finishes when every input has finished, or as soon as an input finishes without ever
///   producing a value (no combination can exist any more). Fails as soon as one input fails,
///   cancelling the others.
/// - Downstream calls are serialised by a drain loop; no lock is held while calling out.
final class CombineLatestCore<Downstream: Subscriber>: Subscription, @unchecked Sendable {
    typealias Failure = Downstream.Failure

    private let lock = OperatorLock()
    private var downstream: Downstream?
    private var subscriptions: [Subscription?]
    private var latest: [Any?]
    private var finished: [Bool]
    private var requested = Subscribers.Demand.none
    private var demand = Subscribers.Demand.none
    private var pending = false
    private var failure: Failure?
    private var draining = false
    private var terminated = false
    private let combine: ([Any]) -> Downstream.Input

    init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = downstream
        self.combine = combine
        subscriptions = Array(repeating: nil, count: count)
        latest = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
    }

    /// The subscriber for input `index`, whose values have type `Input`.
    func child<Input>(_ index: Int, _: Input.Type) -> CombineLatestChild<Input, Downstream> {
        CombineLatestChild(core: self, index: index)
    }

    func start() {
        guard let target = lock.withLock({ downstream }) else { return }
        target.receive(subscription: self)
    }

    func childReceive(subscription: Subscription, index: Int) {
        lock.lock()
        guard !terminated, subscriptions[index] == nil, !finished[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscriptions[index] = subscription
        let initial = requested
        lock.unlock()
        if initial > 0 { subscription.request(initial) }
    }

    func childReceive(_ value: Any, index: Int) -> Subscribers.Demand {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return .none
        }
        latest[index] = value
        let ready = !latest.contains { $0 == nil }
        if ready { pending = true }
        lock.unlock()
        drain()
        // A value that formed no combination is replaced, so this input is not starved.
        return ready ? .none : .max(1)
    }

    func childReceive(completion: Subscribers.Completion<Failure>, index: Int) {
        lock.withLock {
            guard !terminated else { return }
            subscriptions[index] = nil
            finished[index] = true
            if case .failure(let error) = completion, failure == nil { failure = error }
        }
        drain()
    }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        demand += more
        requested += more
        let targets = subscriptions.compactMap { $0 }
        lock.unlock()
        for target in targets { target.request(more) }
        drain()
    }

    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        let (targets, ended) = terminate()
        lock.unlock()
        for target in targets { target.cancel() }
        withExtendedLifetime(ended) {}
    }

    private func drain() {
        lock.lock()
        guard !draining, !terminated else { return lock.unlock() }
        draining = true
        while !terminated {
            if let error = failure {
                let (targets, ended) = terminate()
                lock.unlock()
                for target in targets { target.cancel() }
                ended?.receive(completion: .failure(error))
                return
            }
            if pending, demand > 0, let target = downstream {
                pending = false
                demand -= 1
                let snapshot = latest.map { $0! }
                lock.unlock()
                let extra = target.receive(combine(snapshot))
                lock.lock()
                if extra > 0, !terminated {
                    demand += extra
                    requested += extra
                    let upstreams = subscriptions.compactMap { $0 }
                    lock.unlock()
                    for upstream in upstreams { upstream.request(extra) }
                    lock.lock()
                }
                continue
            }
            let allDone = !finished.contains(false)
            let starved = finished.indices.contains { finished[$0] && latest[$0] == nil }
            if (allDone && !pending) || starved {
                let (targets, ended) = terminate()
                lock.unlock()
                for target in targets { target.cancel() }
                ended?.receive(completion: .finished)
                return
            }
            break
        }
        draining = false
        lock.unlock()
    }

    /// Under the lock: ends the stream, returning what to cancel and the downstream to notify.
    private func terminate() -> ([Subscription], Downstream?) {
        terminated = true
        let targets = subscriptions.compactMap { $0 }
        subscriptions = subscriptions.map { _ in nil }
        let ended = downstream
        downstream = nil
        return (targets, ended)
    }
}

/// The subscriber attached to one input of a `CombineLatestCore`.
struct CombineLatestChild<Input, Downstream: Subscriber>: Subscriber {
    typealias Failure = Downstream.Failure

    let core: CombineLatestCore<Downstream>
    let index: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: Subscription) {
        core.childReceive(subscription: subscription, index: index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.childReceive(input, index: index)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        core.childReceive(completion: completion, index: index)
    }
}
