#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How `CombiningCore` keeps its inputs' values and when they form an output: the one thing
/// that tells `combineLatest` (`CombineLatestRule`) from `zip` (`ZipRule`). Typed: the values
/// live in `CombiningSlots` (one typed field per input), never boxed.
///
/// A value reaches the rule as `carried`, the address of an `Optional` of input `index`'s type
/// holding it; the rule takes the value out and leaves in `carried` whatever it displaced, which
/// the caller releases after unlocking. Every method runs under the core's lock, so none may
/// call out.
@usableFromInline
protocol CombiningRule {
    /// The combination handed downstream: a tuple with one value per input.
    associatedtype Output

    /// How many inputs.
    static var arity: Int { get }

    /// The name Combine gives the subscription (`CombineLatest`, `Zip`).
    static var name: String { get }

    init()

    /// The fast path, tried when the downstream has demand and nobody is delivering: takes in
    /// the value carried at `carried` and returns the demand for input `index` and the
    /// combination to deliver at once (nil if none forms), without queueing it. Returns nil,
    /// taking nothing, if the value must go through `store` (something is queued).
    mutating func takeImmediate(_ carried: UnsafeMutableRawPointer, at index: Int) -> (Subscribers.Demand, Output?)?

    /// Takes in the value carried at `carried` for input `index` while the downstream has
    /// `demand` outstanding. Returns the demand to hand back to that input, and any combination
    /// displaced (released after unlocking).
    mutating func store(_ carried: UnsafeMutableRawPointer, at index: Int, demand: Subscribers.Demand)
        -> (Subscribers.Demand, Output?)

    /// Takes in a value the downstream sent into input `index` from inside its own `receive(_:)`
    /// (re-entrantly, on the delivering thread).
    mutating func storeReentrant(_ carried: UnsafeMutableRawPointer, at index: Int)

    /// Whether `next()` would return a combination.
    var hasNext: Bool { get }

    /// Removes and returns the next combination ready to be delivered, if any.
    mutating func next() -> Output?

    /// True when no further combination can be delivered, given which inputs have finished.
    func isExhausted(finished: [Bool]) -> Bool
}

/// What `CombiningBase.admit(_:)` decided about a value arriving at an input.
@usableFromInline
enum CombiningAdmission: UInt8 {
    /// Dropped (the stream ended, or the input has no subscription or has completed); the lock
    /// is released.
    case dropped
    /// Sent from inside the downstream's `receive(_:)` on the delivering thread; lock held.
    case reentrant
    /// The downstream has demand and nobody delivers: the fast path may deliver; lock held.
    case immediate
    /// It must be stored and left to the drain loop; lock held.
    case queued
}

/// The untyped half of the engine of `CombineLatest`...`CombineLatest4` and `Zip`...`Zip4`:
/// the lock, the inputs' subscriptions and states, the demand, and the delivery bookkeeping.
///
/// Deliberately **not** part of the inlinable surface (see docs/DESIGN-NOTES.md, "Inlinable
/// hot paths"): its layout, lock and states may change without breaking clients. The typed half
/// (`CombiningCore`, inlinable on the value path) reaches it only through the `@usableFromInline`
/// methods below; it is not generic, so those calls need no type metadata.
@usableFromInline
class CombiningBase: @unchecked Sendable {
    /// One atomic word (see `Locks.swift`): never held while calling out, held briefly, so a
    /// pthread mutex (and its out-of-line calls, about 100 instructions per value for the two
    /// sections of the fast path) buys nothing here.
    let lock = InlineLock()
    @exclusivity(unchecked) var subscriptions: [Subscription?]
    @exclusivity(unchecked) var finished: [Bool]
    /// How many inputs have finished (`finished` counted).
    @exclusivity(unchecked) var finishedCount = 0
    /// Whether input i has had its one subscription (or a completion before it, which seals it):
    /// it passes values on only between that subscription and its completion.
    @exclusivity(unchecked) var attached: [Bool]
    /// All the demand ever forwarded, handed to an input whose subscription arrives late.
    @exclusivity(unchecked) var requested = Subscribers.Demand.none
    @exclusivity(unchecked) var demand = Subscribers.Demand.none
    /// Whether an input failed (the typed failure is the subclass's).
    @exclusivity(unchecked) var failed = false
    @exclusivity(unchecked) var draining = false
    /// The `pthread_self()` of the thread calling the downstream, 0 when none: a value arriving on
    /// that thread was sent from inside the downstream's `receive(_:)`.
    @exclusivity(unchecked) var deliveringThread: UInt = 0
    @exclusivity(unchecked) var terminated = false

    init(count: Int) {
        subscriptions = Array(repeating: nil, count: count)
        finished = Array(repeating: false, count: count)
        attached = Array(repeating: false, count: count)
    }

    /// Input `index` got its subscription: keeps it and hands it the demand requested so far,
    /// or cancels it (a second one, or one after the end).
    @usableFromInline
    final func childReceive(subscription: Subscription, index: Int) {
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

    /// Takes the lock and decides what happens to a value arriving at input `index`; returns
    /// with the lock held unless the value is dropped.
    @usableFromInline
    final func admit(_ index: Int) -> CombiningAdmission {
        lock.lock()
        // Nothing from an input before its subscription (a precondition failure in Combine) or
        // after its completion.
        guard !terminated, attached[index], !finished[index] else {
            lock.unlock()
            return .dropped
        }
        if deliveringThread != 0, deliveringThread == UInt(pthread_self()) {
            // Re-entrant: Combine keeps the value but does not emit for it (emitting would let a
            // downstream that sends on every value loop for ever).
            return .reentrant
        }
        return !draining && !failed && demand > 0 ? .immediate : .queued
    }

    /// The outstanding demand (lock held).
    @usableFromInline
    final var outstandingDemand: Subscribers.Demand { demand }

    /// Releases the lock.
    @usableFromInline
    final func unlockCore() {
        lock.unlock()
    }

    /// With the lock held, about to call the downstream with one combination: takes one unit of
    /// demand, marks the drain as running on this thread and releases the lock.
    @usableFromInline
    final func beginDelivery() {
        draining = true
        demand -= 1
        deliveringThread = UInt(pthread_self())
        lock.unlock()
    }

    /// After a delivery: takes the lock again and forwards the `extra` demand the downstream
    /// returned to every input. Returns with the lock held and `draining` still set; true if
    /// the drain loop has more to decide than whether a combination is ready (a failure, an
    /// input finished, the end).
    @usableFromInline
    final func endDelivery(_ extra: Subscribers.Demand) -> Bool {
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
        return failed || terminated || finishedCount > 0
    }

    /// Ends a drain that found nothing to do, and releases the lock.
    @usableFromInline
    final func stopDraining() {
        draining = false
        lock.unlock()
    }

    /// Under the lock: marks the stream ended and returns the subscriptions to cancel.
    final func terminateLocked() -> [Subscription] {
        terminated = true
        let targets = subscriptions.compactMap { $0 }
        subscriptions = subscriptions.map { _ in nil }
        return targets
    }
}

/// The engine of `CombineLatest`...`CombineLatest4` and `Zip`...`Zip4`: N inputs whose values
/// are kept typed by `Rule` (one typed slot or queue per input) and combined into the tuple
/// the downstream receives.
///
/// Rules shared by both operators, as Combine's:
/// - Downstream demand is forwarded to every input (demand the downstream returns from a value
///   too), and the output never exceeds it.
/// - Finishes when `Rule` says nothing more can be delivered; fails as soon as one input fails,
///   cancelling the others.
/// - Downstream calls are serialised by a drain loop: the thread that finds it idle delivers
///   whatever is ready; no lock is held while calling out, and nothing displaced is released
///   under it.
///
/// The value path (`childReceive(_:index:)` and the rule's typed storage) is `@inlinable`, so a
/// client built without flags specialises it for its own value types and subscriber: no value
/// is boxed, no cast or metadata lookup runs per value. The lock and the bookkeeping stay out of
/// line in `CombiningBase`; subscription, request, cancel, completion and the queued path are out
/// of line too.
@usableFromInline
final class CombiningCore<Downstream: Subscriber, Rule: CombiningRule>: CombiningBase, OperatorIntrospection,
    @unchecked Sendable
where Rule.Output == Downstream.Input {
    /// `CombineLatest` or `Zip`, as Combine's.
    @usableFromInline var description: String { Rule.name }

    @usableFromInline typealias Failure = Downstream.Failure

    /// The downstream, boxed (see `DownstreamBox`); nil once the stream has ended.
    @usableFromInline @exclusivity(unchecked) var downstream: DownstreamBox<Downstream>?
    @usableFromInline @exclusivity(unchecked) var rule = Rule()
    @exclusivity(unchecked) var failure: Failure?

    /// Creates the core and hands it to `downstream` as its subscription; then subscribe input
    /// number i to `child(i)`.
    @usableFromInline
    init(downstream: Downstream) {
        self.downstream = DownstreamBox(downstream)
        super.init(count: Rule.arity)
        downstream.receive(subscription: self)
    }

    /// The subscriber for input `index`, whose values have type `Input` (the rule's type for
    /// that input).
    @inlinable
    func child<Input>(_ index: Int) -> CombiningChild<Input, Downstream, Rule> {
        CombiningChild(core: self, index: index)
    }

    /// A value of input `index`. The fast path (demand, nothing queued, nobody delivering)
    /// stores it and delivers any combination it forms at once.
    @inlinable
    func childReceive<Input>(_ value: Input, index: Int) -> Subscribers.Demand {
        let admission = admit(index)
        if admission == .dropped { return .none }
        // Whatever the rule displaces comes back in `carried`, released when it goes out of
        // scope, after the lock.
        var carried: Input? = value
        return withUnsafeMutablePointer(to: &carried) { carried in
            switch admission {
            case .reentrant:
                rule.storeReentrant(carried, at: index)
                unlockCore()
                return .none
            case .immediate:
                if let (more, combination) = rule.takeImmediate(carried, at: index) {
                    guard let combination, let target = downstream else {
                        unlockCore()
                        return more
                    }
                    beginDelivery()
                    let extra = target.downstream.receive(combination)
                    if endDelivery(extra) || rule.hasNext {
                        drainLocked()
                    } else {
                        stopDraining()
                    }
                    return more
                }
                return storeAndDrain(carried, index: index)
            default:
                return storeAndDrain(carried, index: index)
            }
        }
    }

    /// The queued path: stores the value (lock held), releases the lock and drains.
    @inlinable
    func storeAndDrain(_ carried: UnsafeMutableRawPointer, index: Int) -> Subscribers.Demand {
        let (more, displaced) = rule.store(carried, at: index, demand: outstandingDemand)
        unlockCore()
        withExtendedLifetime(displaced) {}
        drain()
        return more
    }

    @usableFromInline
    func childReceive(completion: Subscribers.Completion<Failure>, index: Int) {
        lock.lock()
        guard !terminated, !finished[index] else { return lock.unlock() }
        guard attached[index] else {
            // Before the input's subscription (a precondition failure in Combine): dropped;
            // the input is sealed (a later subscription is cancelled).
            attached[index] = true
            return lock.unlock()
        }
        subscriptions[index] = nil
        finished[index] = true
        finishedCount += 1
        if case .failure(let error) = completion, !failed {
            failed = true
            failure = error
        }
        lock.unlock()
        drain()
    }

    /// Downstream demand: forwarded to every input, then whatever is ready is delivered.
    @usableFromInline
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

    /// Ends the stream without a completion and cancels every input.
    @usableFromInline
    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        let (targets, ended, dropped) = terminate()
        lock.unlock()
        for target in targets { target.cancel() }
        withExtendedLifetime((ended, dropped)) {}
    }

    @usableFromInline
    func drain() {
        lock.lock()
        guard !draining, !terminated else { return lock.unlock() }
        draining = true
        drainLocked()
    }

    /// The drain loop: called with the lock held and `draining` set; returns with the lock
    /// released.
    @usableFromInline
    func drainLocked() {
        while !terminated {
            if failed, let error = failure {
                end(with: .failure(error))
                return
            }
            if demand > 0, let target = downstream, let values = rule.next() {
                beginDelivery()
                _ = endDelivery(target.downstream.receive(values))
                continue
            }
            if rule.isExhausted(finished: finished) {
                end(with: .finished)
                return
            }
            break
        }
        stopDraining()
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
    private func terminate() -> ([Subscription], DownstreamBox<Downstream>?, Rule) {
        let targets = terminateLocked()
        let ended = downstream
        downstream = nil
        var dropped = Rule()
        swap(&dropped, &rule)
        return (targets, ended, dropped)
    }
}

extension CombiningCore: Subscription {}

/// The subscriber attached to one input of a `CombiningCore`.
@usableFromInline
struct CombiningChild<Input, Downstream: Subscriber, Rule: CombiningRule>: Subscriber
where Rule.Output == Downstream.Input {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let core: CombiningCore<Downstream, Rule>
    @usableFromInline let index: Int
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(core: CombiningCore<Downstream, Rule>, index: Int) {
        self.core = core
        self.index = index
    }

    @inlinable
    func receive(subscription: Subscription) {
        core.childReceive(subscription: subscription, index: index)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        core.childReceive(input, index: index)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        core.childReceive(completion: completion, index: index)
    }
}
