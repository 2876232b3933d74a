/// The engine of operators that feed one downstream from a succession of upstream subscriptions,
/// one at a time: `Concatenate`, `Catch`, `TryCatch`, `Retry`.
///
/// It keeps the downstream's outstanding demand (requested minus delivered) and hands all of it
/// to each new upstream when that upstream's subscription arrives, so demand carries over a
/// switch exactly. Each upstream is tagged with a generation; events from an older one are
/// ignored. Upstreams never overlap (the next starts after the previous completed), so
/// downstream calls are naturally serial. No lock is held while calling out.
final class RelayCore<Downstream: Subscriber>: Subscription, OperatorIntrospection, @unchecked Sendable {
    private let lock = Lock()
    private var downstream: Downstream?
    /// The downstream, held for the subscription's whole life (never read) when the operator's
    /// Combine counterpart was recorded to hold it (`Concatenate`); nil for `Retry`, which
    /// lets it go at the end, as Combine's.
    private let keptDownstream: Downstream?
    private var current: Subscription?
    private var generation = 0
    private var demand = Subscribers.Demand.none
    private var terminated = false
    /// The latest generation whose subscription arrived, and the latest that completed: a
    /// generation passes values on only between the two, and takes one subscription.
    private var attachedGeneration = 0
    private var endedGeneration = 0

    /// The operator's name, as Combine's (`Retry`, `Concatenate`, `Catch`, `TryCatch`).
    let description: String

    init(downstream: Downstream, name: String, keepsDownstream: Bool = true) {
        self.downstream = downstream
        self.keptDownstream = keepsDownstream ? downstream : nil
        self.description = name
    }

    /// Hands this subscription to the downstream.
    func sendSubscription() {
        guard let target = lock.withLock({ downstream }) else { return }
        target.receive(subscription: self)
    }

    /// Starts a new upstream generation; `nil` once the stream has ended.
    func nextGeneration() -> Int? {
        lock.withLock {
            guard !terminated else { return nil }
            generation += 1
            current = nil
            return generation
        }
    }

    func attach(_ subscription: Subscription, generation tag: Int) {
        lock.lock()
        guard !terminated, tag == generation, attachedGeneration < tag, endedGeneration < tag else {
            lock.unlock()
            subscription.cancel()
            return
        }
        attachedGeneration = tag
        current = subscription
        let outstanding = demand
        lock.unlock()
        if outstanding > 0 { subscription.request(outstanding) }
    }

    func deliver(_ value: Downstream.Input, generation tag: Int) -> Subscribers.Demand {
        lock.lock()
        // Nothing before the generation's subscription or after its completion.
        guard !terminated, tag == generation, attachedGeneration == tag, endedGeneration < tag,
            let target = downstream
        else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        let extra = target.receive(value)
        lock.withLock { demand += extra }
        return extra
    }

    /// Marks generation `tag` as completed; false if it is stale or the stream has ended. A
    /// completion before the generation's subscription (a precondition failure in Combine) is
    /// dropped and ends the stream without a word to the downstream.
    func ended(generation tag: Int) -> Bool {
        lock.lock()
        guard !terminated, tag == generation, endedGeneration < tag else {
            lock.unlock()
            return false
        }
        endedGeneration = tag
        current = nil
        guard attachedGeneration == tag else {
            terminated = true
            let released = downstream
            downstream = nil
            lock.unlock()
            withExtendedLifetime(released) {}
            return false
        }
        lock.unlock()
        return true
    }

    /// Ends the stream with `completion`.
    func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard !terminated, let target = downstream else { return lock.unlock() }
        terminated = true
        downstream = nil
        let upstream = current
        current = nil
        lock.unlock()
        withExtendedLifetime(upstream) {}
        target.receive(completion: completion)
    }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        demand += more
        let upstream = current
        lock.unlock()
        upstream?.request(more)
    }

    func cancel() {
        lock.lock()
        guard !terminated else { return lock.unlock() }
        terminated = true
        let upstream = current
        let target = downstream
        current = nil
        downstream = nil
        lock.unlock()
        upstream?.cancel()
        withExtendedLifetime(target) {}
    }
}

/// A subscriber for one generation of a `RelayCore`; its completion goes to `onCompletion`
/// (only if the generation is still current).
struct RelayChild<Input, Failure: Error, Downstream: Subscriber>: Subscriber
where Downstream.Input == Input {
    let core: RelayCore<Downstream>
    let generation: Int
    let onCompletion: (Subscribers.Completion<Failure>) -> Void
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: Subscription) {
        core.attach(subscription, generation: generation)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        core.deliver(input, generation: generation)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        guard core.ended(generation: generation) else { return }
        onCompletion(completion)
    }
}

/// What follows the first publisher of a two-stage relay (`subscribeRelay`).
enum RelayStep<Next, Failure: Error> {
    /// The stream ends with this completion.
    case end(Subscribers.Completion<Failure>)
    /// This publisher is subscribed next, with the downstream's remaining demand.
    case then(Next)
}

/// Relays `first` to `subscriber`, then what `step` decides from its completion: the end of the
/// stream, or a second publisher whose completion (its failure converted by `failure`) ends it.
/// The engine of `Concatenate`, `Catch` and `TryCatch`; `step` runs outside any lock.
func subscribeRelay<First: Publisher, Second: Publisher, S: Subscriber>(
    _ subscriber: S, name: String, first: First,
    then step: @escaping (Subscribers.Completion<First.Failure>) -> RelayStep<Second, S.Failure>,
    failure: @escaping (Second.Failure) -> S.Failure
) where First.Output == S.Input, Second.Output == S.Input {
    let core = RelayCore(downstream: subscriber, name: name)
    core.sendSubscription()
    guard let firstGeneration = core.nextGeneration() else { return }
    first.subscribe(
        RelayChild<S.Input, First.Failure, S>(core: core, generation: firstGeneration) { completion in
            switch step(completion) {
            case .end(let end):
                core.finish(end)
            case .then(let second):
                guard let secondGeneration = core.nextGeneration() else { return }
                second.subscribe(
                    RelayChild<S.Input, Second.Failure, S>(core: core, generation: secondGeneration) { end in
                        switch end {
                        case .finished: core.finish(.finished)
                        case .failure(let error): core.finish(.failure(failure(error)))
                        }
                    })
            }
        })
}
