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
/// nothing is buffered and the publisher's demand rules apply. `next()` returns `nil` after the
/// publisher finishes, or when the calling task is cancelled (which cancels the subscription).
/// An iterator is meant to be used by one task at a time.
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
        return Iterator(inner: inner)
    }

    /// Iterates the publisher's values; see `AsyncPublisher`.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let inner: AsyncPull<P.Output, Never>

        /// The next value, or `nil` once the publisher finished or the task was cancelled.
        public mutating func next() async -> P.Output? {
            switch await inner.next() {
            case .success(let handoff): return handoff.value
            }
        }
    }
}

/// The values of a publisher that can fail, as a throwing `AsyncSequence`, as Combine's
/// `AsyncThrowingPublisher`.
///
/// As `AsyncPublisher`, except that `next()` throws the publisher's failure (once; later calls
/// return `nil`).
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
        return Iterator(inner: inner)
    }

    /// Iterates the publisher's values; see `AsyncThrowingPublisher`.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let inner: AsyncPull<P.Output, P.Failure>

        /// The next value, `nil` once the publisher finished or the task was cancelled; throws the
        /// publisher's failure.
        public mutating func next() async throws -> P.Output? {
            switch await inner.next() {
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

/// The subscriber behind both async publishers: one value requested per `next()`.
private final class AsyncPull<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    private enum Ending {
        case finished
        case failed(Failure)
        case consumed
    }

    private let lock = Lock()
    private var subscription: Subscription?
    private var waiting: CheckedContinuation<Result<Handoff<Input>, Failure>, Never>?
    private var owedRequest = false
    private var ending: Ending?

    func receive(subscription: Subscription) {
        let accepted: Bool
        let owed: Bool
        (accepted, owed) = lock.withLock { () -> (Bool, Bool) in
            guard self.subscription == nil, ending == nil else { return (false, false) }
            self.subscription = subscription
            defer { owedRequest = false }
            return (true, owedRequest)
        }
        if !accepted {
            subscription.cancel()
        } else if owed {
            subscription.request(.max(1))
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let continuation = lock.withLock { () -> CheckedContinuation<Result<Handoff<Input>, Failure>, Never>? in
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume(returning: .success(Handoff(value: input)))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let continuation = lock.withLock { () -> CheckedContinuation<Result<Handoff<Input>, Failure>, Never>? in
            subscription = nil
            switch completion {
            case .finished: ending = .finished
            case .failure(let error): ending = .failed(error)
            }
            defer { waiting = nil }
            return waiting
        }
        if let continuation { continuation.resume(returning: takeEnding()) }
    }

    /// Under no lock: the result an ended stream gives now (the failure only once).
    private func takeEnding() -> Result<Handoff<Input>, Failure> {
        lock.withLock {
            switch ending {
            case .failed(let error)?:
                ending = .consumed
                return .failure(error)
            default:
                return .success(Handoff(value: nil))
            }
        }
    }

    func next() async -> Result<Handoff<Input>, Failure> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                lock.lock()
                if ending != nil || Task.isCancelled {
                    lock.unlock()
                    if Task.isCancelled { cancel() }
                    continuation.resume(returning: takeEnding())
                    return
                }
                waiting = continuation
                let upstream = subscription
                if upstream == nil { owedRequest = true }
                lock.unlock()
                upstream?.request(.max(1))
            }
        } onCancel: {
            cancel()
        }
    }

    func cancel() {
        lock.lock()
        let upstream = subscription
        let continuation = waiting
        subscription = nil
        waiting = nil
        if ending == nil { ending = .finished }
        lock.unlock()
        upstream?.cancel()
        continuation?.resume(returning: .success(Handoff(value: nil)))
    }
}
