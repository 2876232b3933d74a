/// A publisher that eventually produces a single value and then finishes, or fails, as Combine's
/// `Future`.
///
/// - `attemptToFulfill` runs once, eagerly, inside `init`, on the initialising thread. It gets a
///   `promise` to call (from any thread) with the result. Only the first call counts; later calls
///   are ignored.
/// - Every subscriber, early or late, gets the stored result: a success is withheld until the
///   subscriber has demand, then delivered as the value followed by `.finished`; a failure is
///   delivered without demand.
/// - Thread-safe: promise, subscribe, request and cancel may happen on any threads; calls into
///   one subscriber never overlap.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// The closure that fulfils the future.
    public typealias Promise = (Result<Output, Failure>) -> Void

    private let lock = Lock()
    private var result: Result<Output, Failure>?
    private var waiting: [FutureSubscriptionBase<Output, Failure>] = []

    /// Creates a future and runs `attemptToFulfill` at once.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            self.fulfil(result)
        }
    }

    private func fulfil(_ result: Result<Output, Failure>) {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = result
        let targets = waiting
        waiting = []
        lock.unlock()
        for target in targets {
            target.resolve(result)
        }
    }

    /// A waiting subscription was cancelled: forget it (and the subscriber it held).
    fileprivate func forget(_ subscription: FutureSubscriptionBase<Output, Failure>) {
        let removed = lock.withLock { () -> FutureSubscriptionBase<Output, Failure>? in
            guard let index = waiting.firstIndex(where: { $0 === subscription }) else { return nil }
            return waiting.remove(at: index)
        }
        withExtendedLifetime(removed) {}  // released outside the lock
    }

    /// Attaches `subscriber`; it gets the result once there is one (and demand, for a value).
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = FutureSubscription(subscriber, parent: self)
        // Registered under the subscription's delivery lock: a promise fulfilled on another
        // thread meanwhile delivers only after `receive(subscription:)`.
        let known = subscription.start {
            lock.withLock { () -> Result<Output, Failure>? in
                if result == nil { waiting.append(subscription) }
                return result
            }
        }
        if let known { subscription.resolve(known) }
    }
}

/// Erases the subscriber type so a future can keep a list of waiting subscriptions.
class FutureSubscriptionBase<Output, Failure: Error>: @unchecked Sendable {
    func resolve(_ result: Result<Output, Failure>) {}
}

private final class FutureSubscription<S: Subscriber>: FutureSubscriptionBase<S.Input, S.Failure>,
    Subscription, OperatorIntrospection, @unchecked Sendable
{
    private let lock = Lock()
    // Held while calling the subscriber so a promise on another thread cannot overtake
    // `receive(subscription:)`.
    private let delivery = RecursiveLock()
    private var downstream: S?
    private var result: Result<S.Input, S.Failure>?
    private var demand = Subscribers.Demand.none
    /// The future, while this subscription waits on it; dropped on termination.
    private var parent: Future<S.Input, S.Failure>?

    init(_ downstream: S, parent: Future<S.Input, S.Failure>) {
        self.downstream = downstream
        self.parent = parent
    }

    var description: String { "Future" }

    /// As Combine's: `parent` and `subject` (the future, until the end), `downstream`, and
    /// `hasAnyDemand`.
    var customMirror: Mirror {
        lock.lock()
        let (future, target, demanded) = (parent, downstream, demand > 0)
        lock.unlock()
        let children: KeyValuePairs<String, Any> = [
            "parent": future as Any, "downstream": target as Any, "hasAnyDemand": demanded, "subject": future as Any,
        ]
        return Mirror(self, children: children)
    }

    /// Runs `register` (which returns the future's result, if any) and hands the subscription
    /// to the subscriber, under one hold of the delivery lock.
    func start(
        registeredBy register: () -> Result<S.Input, S.Failure>?
    ) -> Result<S.Input, S.Failure>? {
        delivery.lock()
        let known = register()
        lock.lock()
        let target = downstream
        lock.unlock()
        target?.receive(subscription: self)
        delivery.unlock()
        return known
    }

    override func resolve(_ result: Result<S.Input, S.Failure>) {
        lock.lock()
        self.result = result
        lock.unlock()
        deliverIfReady()
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        lock.lock()
        self.demand += demand
        lock.unlock()
        deliverIfReady()
    }

    private func deliverIfReady() {
        delivery.lock()
        lock.lock()
        guard let target = downstream, let result else {
            lock.unlock()
            delivery.unlock()
            return
        }
        switch result {
        case .success(let value):
            guard demand > 0 else {
                lock.unlock()
                delivery.unlock()
                return
            }
            let released = releaseStateLocked()
            lock.unlock()
            _ = target.receive(value)
            target.receive(completion: .finished)
            withExtendedLifetime(released) {}
        case .failure(let error):
            let released = releaseStateLocked()
            lock.unlock()
            target.receive(completion: .failure(error))
            withExtendedLifetime(released) {}
        }
        delivery.unlock()
        withExtendedLifetime(target) {}
    }

    func cancel() {
        lock.lock()
        let target = downstream
        let released = releaseStateLocked()
        lock.unlock()
        released.parent?.forget(self)
        withExtendedLifetime((target, released)) {}
    }

    /// With `lock` held, on termination: drops the subscriber, the result and the future (as
    /// Combine's), returning them to be released after unlocking.
    private func releaseStateLocked() -> (parent: Future<S.Input, S.Failure>?, result: Result<S.Input, S.Failure>?) {
        defer {
            downstream = nil
            result = nil
            parent = nil
        }
        return (parent, result)
    }
}

extension Future where Failure == Never {
    /// The future's value, once the promise is fulfilled, as Combine's async `value`. Waiting
    /// does not start anything (the closure ran in `init`); cancelling the waiting task does not
    /// end the wait, as in Combine.
    public var value: Output {
        get async {
            let handed = await withCheckedContinuation { continuation in
                awaitResult { continuation.resume(returning: FutureHandoff($0)) }
            }
            switch handed.result {
            case .success(let value): return value
            }
        }
    }
}

extension Future {
    /// The future's value, or its failure thrown, once the promise is fulfilled, as Combine's
    /// async `value`.
    public var value: Output {
        get async throws {
            let handed = await withCheckedContinuation { continuation in
                awaitResult { continuation.resume(returning: FutureHandoff($0)) }
            }
            return try handed.result.get()
        }
    }

    /// Subscribes a one-shot sink that calls `deliver` once with the result. The subscription
    /// holds the sink until the future delivers.
    private func awaitResult(_ deliver: @escaping (Result<Output, Failure>) -> Void) {
        let once = OnceBox(deliver)
        subscribe(
            Subscribers.Sink<Output, Failure>(
                receiveCompletion: { completion in
                    if case .failure(let error) = completion { once.call(.failure(error)) }
                },
                receiveValue: { once.call(.success($0)) }))
    }
}

/// Calls its closure the first time only; a future delivers a value then `.finished`.
private final class OnceBox<Output, Failure: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var body: ((Result<Output, Failure>) -> Void)?

    init(_ body: @escaping (Result<Output, Failure>) -> Void) {
        self.body = body
    }

    func call(_ result: Result<Output, Failure>) {
        let taken = lock.withLock { () -> ((Result<Output, Failure>) -> Void)? in
            defer { body = nil }
            return body
        }
        taken?(result)
    }
}

/// Carries a future's result from the delivering thread to the one task awaiting it, never
/// shared.
private struct FutureHandoff<Output, Failure: Error>: @unchecked Sendable {
    let result: Result<Output, Failure>
    init(_ result: Result<Output, Failure>) { self.result = result }
}
