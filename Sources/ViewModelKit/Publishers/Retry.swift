extension Publishers {
    /// Resubscribes to the upstream after a failure, up to `retries` times, as Combine's
    /// `Publishers.Retry`.
    ///
    /// Each new subscription receives the downstream's remaining demand. Values delivered before
    /// a failure are not taken back. When retries run out the last failure is delivered.
    /// Upstreams that fail synchronously during `subscribe` are retried in a loop, not by
    /// recursion, so a large count cannot overflow the stack.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The upstream's output.
        public typealias Output = Upstream.Output
        /// The upstream's failure.
        public typealias Failure = Upstream.Failure

        /// The publisher to resubscribe to.
        public let upstream: Upstream
        /// How many resubscriptions are allowed; `nil` (or a negative count) means without limit.
        public let retries: Int?

        /// Retries `upstream` up to `retries` times (`nil`: forever). A negative count also means
        /// forever, as in Combine (its count is checked only for reaching zero).
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = RelayCore(downstream: subscriber, name: "Retry", keepsDownstream: false)
            core.sendSubscription()
            RetryDriver(core: core, upstream: upstream, remaining: retries.flatMap { $0 < 0 ? nil : $0 }).run()
        }
    }
}

/// Resubscribes `upstream` for `Publishers.Retry`, trampolining synchronous failures.
private final class RetryDriver<Upstream: Publisher, Downstream: Subscriber>: @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
    private let lock = Lock()
    private let core: RelayCore<Downstream>
    private let upstream: Upstream
    private var remaining: Int?
    private var subscribing = false
    private var again = false

    init(core: RelayCore<Downstream>, upstream: Upstream, remaining: Int?) {
        self.core = core
        self.upstream = upstream
        self.remaining = remaining
    }

    func run() {
        let busy = lock.withLock { () -> Bool in
            if subscribing {
                again = true
                return true
            }
            subscribing = true
            return false
        }
        if busy { return }
        while true {
            guard let generation = core.nextGeneration() else {
                lock.withLock { subscribing = false }
                return
            }
            upstream.subscribe(
                RelayChild<Upstream.Output, Upstream.Failure, Downstream>(core: core, generation: generation) {
                    [self] completion in self.handle(completion)
                })
            let repeatNow = lock.withLock { () -> Bool in
                if again {
                    again = false
                    return true
                }
                subscribing = false
                return false
            }
            if !repeatNow { return }
        }
    }

    private func handle(_ completion: Subscribers.Completion<Upstream.Failure>) {
        guard case .failure(let error) = completion else { return core.finish(.finished) }
        let allowed = lock.withLock { () -> Bool in
            switch remaining {
            case nil: return true
            case let count? where count > 0:
                remaining = count - 1
                return true
            default: return false
            }
        }
        if allowed { run() } else { core.finish(.failure(error)) }
    }
}

extension Publisher {
    /// Resubscribes up to `retries` times after a failure, as Combine's `retry(_:)` (a negative
    /// count retries forever, as Combine's does). See `Publishers.Retry`.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}
