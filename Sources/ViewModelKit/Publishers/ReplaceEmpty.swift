extension Publishers {
    /// Republishes upstream's values, or one given value if upstream finishes without any, as
    /// Combine's `Publishers.ReplaceEmpty`.
    ///
    /// Values and failures pass straight through. When upstream finishes having sent nothing,
    /// `output` is published once the subscriber has asked for anything, followed by
    /// `.finished`. Demand, as Combine: once the subscriber has its subscription (and asked for
    /// what it wants), upstream is asked for `.unlimited`; the subscriber's requests are passed
    /// on as well.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The value published in place of an empty stream.
        public let output: Upstream.Output
        /// The upstream publisher.
        public let upstream: Upstream

        /// Creates the operator.
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, output: output))
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publishers.ReplaceEmpty {
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let output: Input
        // Touched only by the serial receive calls.
        private var sawValue = false
        // Guarded by `lock`.
        private var demanded = false
        private var waitingToReplace = false
        private var ended = false

        init(downstream: Downstream, output: Input) {
            self.output = output
            super.init(downstream: downstream, name: "ReplaceEmpty")
        }

        override func receive(subscription: Subscription) {
            guard attach(subscription) else { return }
            downstream?.receive(subscription: self)
            lock.withLock { ended ? nil : upstream }?.request(.unlimited)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            guard isLive else { return .none }
            sawValue = true
            // Nothing once the stream ended or the subscriber cancelled.
            if lock.withLock({ ended }) { return .none }
            return downstream?.receive(input) ?? .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            // Before the subscription or after the end: dropped (and the relay is closed).
            guard takeUpstream() != nil else { return }
            guard case .finished = completion, !sawValue else {
                let first = lock.withLock { () -> Bool in
                    defer { ended = true }
                    return !ended
                }
                if first { complete(completion) }
                return
            }
            let replaceNow = lock.withLock { () -> Bool in
                guard !ended else { return false }
                if demanded { ended = true } else { waitingToReplace = true }
                return demanded
            }
            if replaceNow { replace() }
        }

        private func replace() {
            _ = downstream?.receive(output) ?? .none
            complete(.finished)
        }

        override func request(_ demand: Subscribers.Demand) {
            guard demand > 0 else { return }
            let replaceNow = lock.withLock { () -> Bool in
                demanded = true
                guard waitingToReplace, !ended else { return false }
                ended = true
                return true
            }
            if replaceNow { replace() } else { super.request(demand) }
        }

        override func cancel() {
            lock.withLock { ended = true }
            super.cancel()
        }
    }
}

extension Publisher {
    /// Publishes `output` if upstream finishes without a value, as Combine's
    /// `replaceEmpty(with:)`.
    public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
