#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `CombiningCore` keeps its inputs' values and when they form an output: the one thing
/// that tells `combineLatest` (`CombineLatestRule`) from `zip` (`ZipRule`). Every method runs
/// under the core's lock, so none may call out.
protocol CombiningRule {
    init(count: Int)
    /// Takes in a value of input `index` while the downstream has `demand` outstanding. Returns
    /// the demand to hand back to that input, and anything displaced (released after unlocking).
    mutating func store(_ value: Any, at index: Int, demand: Subscribers.Demand) -> (Subscribers.Demand, [Any]?)
    /// Takes in a value the downstream sent into input `index` from inside its own `receive(_:)`
    /// (re-entrantly, on the delivering thread). Returns anything displaced.
    mutating func storeReentrant(_ value: Any, at index: Int) -> Any?
    /// The fast path, tried when the downstream has demand and nobody is delivering: takes in a
    /// value of input `index` and returns the demand for that input and the combination to
    /// deliver at once (nil if none forms), without queueing it. Returns nil, storing nothing, if
    /// the value must go through `store` (something is queued).
    mutating func takeImmediate(_ value: Any, at index: Int) -> (Subscribers.Demand, [Any]?)?
    /// Removes and returns the next combination ready to be delivered, if any.
    mutating func next() -> [Any]?
    /// True when no further combination can be delivered, given which inputs have finished.
    func isExhausted(finished: [Bool]) -> Bool
    /// Empties the rule, returning what it held (released after unlocking).
    mutating func removeAll() -> [[Any]]
}

/// The engine of `CombineLatest`...`CombineLatest4` and `Zip`...`Zip4`: N inputs whose values,
/// type-erased to `Any`, are combined by `Rule` and rebuilt into a tuple by `combine`.
///
/// Rules shared by both operators, as Combine's:
/// - Downstream demand is forwarded to every input (demand the downstream returns from a value
///   too), and the output never exceeds it.
/// - Finishes when `Rule` says nothing more can be delivered; fails as soon as one input fails,
///   cancelling the others.
/// - Downstream calls are serialised by a drain loop: the thread that finds it idle delivers
///   whatever is ready; no lock is held while calling out.
final class CombiningCore<Downstream: Subscriber, Rule: CombiningRule>: Subscription, @unchecked Sendable {
    typealias Failure = Downstream.Failure

    private let lock = Lock()
    /// The downstream, boxed (see `DownstreamBox`); nil once the stream has ended.
    @exclusivity(unchecked) private var downstream: DownstreamBox<Downstream>?
    @exclusivity(unchecked) private var subscriptions: [Subscription?]
    @exclusivity(unchecked) private var finished: [Bool]
    /// Whether input i has had its one subscription (or a completion before it, which seals it):
    /// it passes values on only between that subscription and its completion.
    @exclusivity(unchecked) private var attached: [Bool]
    @exclusivity(unchecked) private var rule: Rule
    /// All the demand ever forwarded, handed to an input whose subscription arrives late.
    @exclusivity(unchecked) private var requested = Subscribers.Demand.none
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    @exclusivity(unchecked) private var failure: Failure?
    /// `failure != nil`, without touching the generic optional on the value path.
    @exclusivity(unchecked) private var failed = false
    @exclusivity(unchecked) private var draining = false
    /// The `pthread_self()` of the thread calling the downstream, 0 when none: a value arriving on
    /// that thread was sent from inside the downstream's `receive(_:)`.
    @exclusivity(unchecked) private var deliveringThread: UInt = 0
    @exclusivity(unchecked) private var terminated = false
    private let combine: ([Any]) -> Downstream.Input

    /// Creates the core and hands it to `downstream` as its subscription; then subscribe input
    /// number i to `child(i)`.
    init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = DownstreamBox(downstream)
        self.combine = combine
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
        attached = Array(repeating: false, count: count)
        rule = Rule(count: count)
        downstream.receive(subscription: self)
    }

    /// The subscriber for input `index`, whose values have type `Input`.
    func child<Input>(_ index: Int) -> CombiningChild<Input, Downstream, Rule> {
        CombiningChild(core: self, index: index)
    }

    func childReceive(subscription: Subscription, index: Int) {
        lock.lock()
        guard !terminated, !attached[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        attached[index] = true
        subscriptions[index] = subscription
        let initial = requested
        lock.unlock()
        if initial > 0 { subscription.request(initial) }
    }

    func childReceive(_ value: Any, index: Int) -> Subscribers.Demand {
        lock.lock()
        // Nothing from an input before its subscription (a precondition failure in Combine) or
        // after its completion.
        guard !terminated, attached[index], !finished[index] else {
            lock.unlock()
            return .none
        }
        if deliveringThread != 0, deliveringThread == UInt(pthread_self()) {
            // Re-entrant: Combine keeps the value but does not emit for it (emitting would let a
            // downstream that sends on every value loop for ever).
            let displaced = rule.storeReentrant(value, at: index)
            lock.unlock()
            withExtendedLifetime(displaced) {}
            return .none
        }
        if !draining, !failed, demand > 0, let target = downstream,
            let immediate = rule.takeImmediate(value, at: index)
        {
            let (more, combination) = immediate
            // Fast path: nothing queued, so a combination formed now is delivered at once.
            guard let combination else {
                lock.unlock()
                return more
            }
            draining = true
            deliverLocked(combination, to: target)
            drainLocked()
            return more
        }
        let (more, displaced) = rule.store(value, at: index, demand: demand)
        lock.unlock()
        withExtendedLifetime(displaced) {}
        drain()
        return more
    }

    func childReceive(completion: Subscribers.Completion<Failure>, index: Int) {
        lock.withLock {
            guard !terminated, !finished[index] else { return }
            guard attached[index] else {
                // Before the input's subscription (a precondition failure in Combine): dropped;
                // the input is sealed (a later subscription is cancelled).
                attached[index] = true
                return
            }
            subscriptions[index] = nil
            finished[index] = true
            if case .failure(let error) = completion, !failed {
                failed = true
                failure = error
            }
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
        drainLocked()
    }

    /// With the lock held and `draining` set: delivers `values` (unlocking around the call) and
    /// forwards any extra demand the downstream returns; returns with the lock held.
    private func deliverLocked(_ values: [Any], to target: DownstreamBox<Downstream>) {
        demand -= 1
        deliveringThread = UInt(pthread_self())
        lock.unlock()
        let extra = target.downstream.receive(combine(values))
        lock.lock()
        deliveringThread = 0
        if extra > 0, !terminated {
            demand += extra
            requested += extra
            let upstreams = subscriptions.compactMap { $0 }
            lock.unlock()
            for upstream in upstreams { upstream.request(extra) }
            lock.lock()
        }
    }

    /// The drain loop: called with the lock held and `draining` set; returns with the lock
    /// released.
    private func drainLocked() {
        while !terminated {
            if failed, let error = failure {
                end(with: .failure(error))
                return
            }
            if demand > 0, let target = downstream, let values = rule.next() {
                deliverLocked(values, to: target)
                continue
            }
            if rule.isExhausted(finished: finished) {
                end(with: .finished)
                return
            }
            break
        }
        draining = false
        lock.unlock()
    }

    /// Called with the lock held, which it releases: ends the stream with `completion`.
    private func end(with completion: Subscribers.Completion<Failure>) {
        let (targets, ended, dropped) = terminate()
        lock.unlock()
        for target in targets { target.cancel() }
        withExtendedLifetime(dropped) {}
        ended?.downstream.receive(completion: completion)
    }

    /// Under the lock: ends the stream, returning what to cancel, notify and release.
    private func terminate() -> ([Subscription], DownstreamBox<Downstream>?, [[Any]]) {
        terminated = true
        let targets = subscriptions.compactMap { $0 }
        subscriptions = subscriptions.map { _ in nil }
        let ended = downstream
        downstream = nil
        return (targets, ended, rule.removeAll())
    }
}

/// The subscriber attached to one input of a `CombiningCore`.
struct CombiningChild<Input, Downstream: Subscriber, Rule: CombiningRule>: Subscriber {
    typealias Failure = Downstream.Failure

    let core: CombiningCore<Downstream, Rule>
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
