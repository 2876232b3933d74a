extension Publisher where Failure == Never {
    /// This publisher's values as an `AsyncSequence`, as Combine's `values`.
    /// See `AsyncPublisher`.
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

extension Publisher {
    /// This publisher's values as a throwing `AsyncSequence`, as Combine's `values` on a
    /// publisher that can fail. See `AsyncThrowingPublisher`.
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// The values of a publisher that cannot fail, as an `AsyncSequence`, as Combine's
/// `AsyncPublisher`.
///
/// Each iterator subscribes once, when it is made, and requests one value per `next()` call, so
/// nothing is buffered and the publisher's demand rules apply (calls made before the publisher
/// hands over its subscription are requested together when it does). `next()` returns `nil`
/// after the publisher finishes, or once the iteration is cancelled: by cancelling a task
/// waiting in `next()`, or by dropping the iterator (leaving a `for await` loop with `break`
/// does), either of which cancels the subscription.
///
/// Several tasks may wait in `next()` on one iterator (shared through a reference): each call
/// requests one value, values go to the waiting calls in the order they were made, and the end
/// of the stream, or a cancel, resumes every waiting call with `nil`.
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The publisher's output.
    public typealias Element = P.Output

    private let publisher: P

    /// Wraps `publisher`.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator over its values.
    public func makeAsyncIterator() -> Iterator {
        let inner = AsyncPull<P.Output, Never>()
        publisher.subscribe(inner)
        return Iterator(lifetime: IterationLifetime(inner))
    }

    /// Iterates the publisher's values; see `AsyncPublisher`. Copies share one subscription,
    /// which is cancelled when the last copy is dropped.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let lifetime: IterationLifetime<P.Output, Never>

        /// The next value, or `nil` once the publisher finished or the iteration was cancelled.
        public mutating func next() async -> P.Output? {
            switch await lifetime.inner.next() {
            case .success(let handoff): return handoff.value
            }
        }
    }
}

/// The values of a publisher that can fail, as a throwing `AsyncSequence`, as Combine's
/// `AsyncThrowingPublisher`.
///
/// As `AsyncPublisher`, except that `next()` throws the publisher's failure (once, to the
/// first waiting call; later calls return `nil`).
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The publisher's output.
    public typealias Element = P.Output

    private let publisher: P

    /// Wraps `publisher`.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator over its values.
    public func makeAsyncIterator() -> Iterator {
        let inner = AsyncPull<P.Output, P.Failure>()
        publisher.subscribe(inner)
        return Iterator(lifetime: IterationLifetime(inner))
    }

    /// Iterates the publisher's values; see `AsyncThrowingPublisher`. Copies share one
    /// subscription, which is cancelled when the last copy is dropped.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let lifetime: IterationLifetime<P.Output, P.Failure>

        /// The next value, `nil` once the publisher finished or the iteration was cancelled;
        /// throws the publisher's failure.
        public mutating func next() async throws -> P.Output? {
            switch await lifetime.inner.next() {
            case .success(let handoff): return handoff.value
            case .failure(let error): throw error
            }
        }
    }
}

/// Carries a value across the continuation; the value is handed from the subscriber's thread to
/// the single task awaiting it, never shared.
private struct Handoff<Value>: @unchecked Sendable {
    let value: Value?
}

/// Owned by the iterator (and its copies) only: the subscription holds the `AsyncPull`, so the
/// pull cannot notice by itself that nobody iterates any more. The last copy going cancels it.
private final class IterationLifetime<Input, Failure: Error>: Sendable {
    let inner: AsyncPull<Input, Failure>

    init(_ inner: AsyncPull<Input, Failure>) {
        self.inner = inner
    }

    deinit { inner.cancel() }
}

/// The subscriber behind both async publishers: one value requested per `next()` call, the
/// calls waiting in a queue (Combine's rules, as its recorded tests show them).
private final class AsyncPull<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Waiter = CheckedContinuation<Result<Handoff<Input>, Failure>, Never>

    private enum State {
        /// No subscription yet; `owed` values were asked for meanwhile.
        case awaitingSubscription(owed: Int)
        case subscribed(Subscription)
        /// Finished, failed or cancelled.
        case terminal
    }

    private enum Ending {
        case finished
        case failed(Failure)
        case consumed
    }

    // Guards everything below; never held while calling the subscription or resuming a waiter.
    private let lock = Lock()
    private var state = State.awaitingSubscription(owed: 0)
    private var ending: Ending?
    /// The `next()` calls waiting for a value, oldest first.
    private var waiters: [Waiter] = []

    func receive(subscription: Subscription) {
        let owed = lock.withLock { () -> Int? in
            guard case .awaitingSubscription(let owed) = state else { return nil }
            state = .subscribed(subscription)
            return owed
        }
        guard let owed else { return subscription.cancel() }
        if owed > 0 { subscription.request(.max(owed)) }
    }

    /// Where a value goes: to the oldest waiting call, nowhere, or (before the subscription)
    /// nowhere while every waiting call ends.
    private enum Delivery {
        case one(Waiter)
        case none
        case endEveryWaiter([Waiter])
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let delivery = lock.withLock { () -> Delivery in
            switch state {
            case .subscribed:
                // A value nobody asked for (Combine traps): dropped.
                return waiters.isEmpty ? .none : .one(waiters.removeFirst())
            case .awaitingSubscription:
                // A value before the subscription, as Combine: the waiting calls return nil.
                defer { waiters = [] }
                return .endEveryWaiter(waiters)
            case .terminal:
                return .none
            }
        }
        switch delivery {
        case .one(let waiter): waiter.resume(returning: .success(Handoff(value: input)))
        case .endEveryWaiter(let waiters): resumeWithNil(waiters)
        case .none: break
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let waiting = lock.withLock { () -> [Waiter] in
            if case .terminal = state { return [] }
            state = .terminal
            switch completion {
            case .finished: ending = .finished
            case .failure(let error): ending = .failed(error)
            }
            defer { waiters = [] }
            return waiters
        }
        // The oldest waiting call gets the failure, the others the end.
        for waiter in waiting { waiter.resume(returning: takeEnding()) }
    }

    /// The result an ended stream gives now (the failure only once).
    private func takeEnding() -> Result<Handoff<Input>, Failure> {
        lock.withLock {
            guard case .failed(let error)? = ending else { return .success(Handoff(value: nil)) }
            ending = .consumed
            return .failure(error)
        }
    }

    func next() async -> Result<Handoff<Input>, Failure> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: Waiter) in
                let upstream = lock.withLock { () -> Subscription?? in
                    switch state {
                    case .terminal:
                        return nil
                    case .awaitingSubscription(let owed):
                        waiters.append(waiter)
                        state = .awaitingSubscription(owed: owed + 1)
                        return .some(nil)
                    case .subscribed(let subscription):
                        waiters.append(waiter)
                        return .some(subscription)
                    }
                }
                guard let upstream else { return waiter.resume(returning: takeEnding()) }
                upstream?.request(.max(1))
            }
        } onCancel: {
            cancel()
        }
    }

    /// Ends the iteration: the subscription is cancelled and every waiting call returns `nil`.
    /// Idempotent; does nothing once the stream has ended.
    func cancel() {
        let (upstream, waiting) = lock.withLock { () -> (Subscription?, [Waiter]) in
            let upstream: Subscription?
            switch state {
            case .terminal: return (nil, [])
            case .subscribed(let subscription): upstream = subscription
            case .awaitingSubscription: upstream = nil
            }
            state = .terminal
            if ending == nil { ending = .finished }
            defer { waiters = [] }
            return (upstream, waiters)
        }
        upstream?.cancel()
        resumeWithNil(waiting)
    }

    private func resumeWithNil(_ waiters: [Waiter]) {
        for waiter in waiters { waiter.resume(returning: .success(Handoff(value: nil))) }
    }
}
