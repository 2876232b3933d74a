extension Publishers {
    /// Publishes the elements of an `AsyncSequence`, then finishes, or fails with the error its
    /// iteration throws. No Combine counterpart on Apple platforms; it follows the rules of
    /// `Publishers.Sequence`.
    ///
    /// Each subscriber gets its own iteration, run in an unstructured `Task` that starts at the
    /// first request. The task waits for demand before each `next()`, so it never delivers more
    /// than requested. Values and the completion are delivered from that task (a thread of the
    /// global concurrent executor), one at a time. `cancel()` cancels the task; nothing is
    /// delivered afterwards.
    public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
        /// The sequence's element.
        public typealias Output = Base.Element
        /// The error the sequence's iteration can throw (`Never` for a non-throwing sequence).
        public typealias Failure = Base.Failure

        /// The sequence to iterate.
        public let base: Base

        /// A publisher of `base`'s elements.
        public init(_ base: Base) {
            self.base = base
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: AsyncSequenceSubscription(downstream: subscriber, base: base))
        }
    }
}

private final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>:
    Subscription, AsyncRunnable, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    private let lock = Lock()
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var waiting: CheckedContinuation<Bool, Never>?
    private var task: Task<Void, Never>?
    private var started = false
    private var cancelled = false
    private let base: Base

    init(downstream: Downstream, base: Base) {
        self.downstream = downstream
        self.base = base
    }

    func request(_ more: Subscribers.Demand) {
        lock.lock()
        guard !cancelled, more > 0 else { return lock.unlock() }
        demand += more
        let resume = waiting
        waiting = nil
        let start = !started
        started = true
        lock.unlock()
        resume?.resume(returning: true)
        if start {
            let made = launchTask(self)
            let late = lock.withLock { () -> Bool in
                task = made
                return cancelled
            }
            if late { made.cancel() }
        }
    }

    func cancel() {
        lock.lock()
        guard !cancelled else { return lock.unlock() }
        cancelled = true
        let running = task
        let resume = waiting
        let target = downstream
        task = nil
        waiting = nil
        downstream = nil
        lock.unlock()
        running?.cancel()
        resume?.resume(returning: false)
        withExtendedLifetime(target) {}
    }

    /// Waits until there is demand; takes one unit and returns the downstream, or nil if cancelled.
    private func takeDemand() async -> Downstream? {
        while true {
            lock.lock()
            if cancelled {
                lock.unlock()
                return nil
            }
            if demand > 0, let target = downstream {
                demand -= 1
                lock.unlock()
                return target
            }
            lock.unlock()
            let proceed = await withCheckedContinuation { continuation in
                lock.lock()
                if cancelled || demand > 0 {
                    lock.unlock()
                    continuation.resume(returning: !cancelled)
                    return
                }
                waiting = continuation
                lock.unlock()
            }
            if !proceed { return nil }
        }
    }

    private func finish(_ completion: Subscribers.Completion<Base.Failure>) {
        lock.lock()
        guard !cancelled, let target = downstream else { return lock.unlock() }
        cancelled = true
        downstream = nil
        task = nil
        lock.unlock()
        target.receive(completion: completion)
    }

    func run() async {
        var iterator = base.makeAsyncIterator()
        while true {
            guard let target = await takeDemand() else { return }
            let element: Base.Element?
            do throws(Base.Failure) {
                element = try await iterator.next(isolation: nil)
            } catch {
                finish(.failure(error))
                return
            }
            guard let element else {
                finish(.finished)
                return
            }
            guard lock.withLock({ !cancelled }) else { return }
            let extra = target.receive(element)
            if extra > 0 { lock.withLock { demand += extra } }
        }
    }
}

/// Something with an async body to run in its own task.
private protocol AsyncRunnable: AnyObject, Sendable {
    func run() async
}

/// Starts `runner` in an unstructured task, from outside the generic context so that the task
/// captures no generic metatype.
private func launchTask(_ runner: any AsyncRunnable) -> Task<Void, Never> {
    Task { await runner.run() }
}

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements; see `Publishers.AsyncSequencePublisher`.
    public var publisher: Publishers.AsyncSequencePublisher<Self> {
        Publishers.AsyncSequencePublisher(self)
    }
}
