/// The engine of `Zip`, `Zip3` and `Zip4`: N inputs whose values are paired by position,
/// type-erased to `Any` and rebuilt into a tuple by `combine`.
///
/// Rules, as Combine's `zip`:
/// - The k-th output combines the k-th value of every input; unmatched values wait in per-input
///   buffers.
/// - Downstream demand is forwarded to every input, so no input produces more than the
///   downstream asked for and the output never exceeds demand.
/// - Finishes as soon as an input has finished and its buffer is empty (no further tuple can
///   form), cancelling the others. Fails as soon as one input fails.
/// - Downstream calls are serialised by a drain loop; no lock is held while calling out.
final class ZipCore<Downstream: Subscriber>: Subscription, @unchecked Sendable {
    typealias Failure = Downstream.Failure

    private let lock = OperatorLock()
    private var downstream: Downstream?
    private var subscriptions: [Subscription?]
    private var buffers: [[Any]]
    private var finished: [Bool]
    private var requested = Subscribers.Demand.none
    private var demand = Subscribers.Demand.none
    private var failure: Failure?
    private var draining = false
    private var terminated = false
    private let combine: ([Any]) -> Downstream.Input

    init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = downstream
        self.combine = combine
        subscriptions = Array(repeating: nil, count: count)
        buffers = Array(repeating: [], count: count)
        finished = Array(repeating: false, count: count)
    }

    /// The subscriber for input `index`, whose values have type `Input`.
    func child<Input>(_ index: Int, _: Input.Type) -> ZipChild<Input, Downstream> {
        ZipChild(core: self, index: index)
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
        lock.withLock {
            guard !terminated else { return }
            buffers[index].append(value)
        }
        drain()
        return .none
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
        let (targets, ended, dropped) = terminate()
        lock.unlock()
        for target in targets { target.cancel() }
        withExtendedLifetime((ended, dropped)) {}
    }

    private func drain() {
        lock.lock()
        guard !draining, !terminated else { return lock.unlock() }
        draining = true
        while !terminated {
            if let error = failure {
                let (targets, ended, dropped) = terminate()
                lock.unlock()
                for target in targets { target.cancel() }
                withExtendedLifetime(dropped) {}
                ended?.receive(completion: .failure(error))
                return
            }
            if demand > 0, !buffers.contains(where: { $0.isEmpty }), let target = downstream {
                demand -= 1
                var heads: [Any] = []
                heads.reserveCapacity(buffers.count)
                for index in buffers.indices { heads.append(buffers[index].removeFirst()) }
                lock.unlock()
                let extra = target.receive(combine(heads))
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
            if buffers.indices.contains(where: { finished[$0] && buffers[$0].isEmpty }) {
                let (targets, ended, dropped) = terminate()
                lock.unlock()
                for target in targets { target.cancel() }
                withExtendedLifetime(dropped) {}
                ended?.receive(completion: .finished)
                return
            }
            break
        }
        draining = false
        lock.unlock()
    }

    /// Under the lock: ends the stream, returning what to cancel, notify and release.
    private func terminate() -> ([Subscription], Downstream?, [[Any]]) {
        terminated = true
        let targets = subscriptions.compactMap { $0 }
        subscriptions = subscriptions.map { _ in nil }
        let ended = downstream
        downstream = nil
        let dropped = buffers
        buffers = buffers.map { _ in [] }
        return (targets, ended, dropped)
    }
}

/// The subscriber attached to one input of a `ZipCore`.
struct ZipChild<Input, Downstream: Subscriber>: Subscriber {
    typealias Failure = Downstream.Failure

    let core: ZipCore<Downstream>
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
