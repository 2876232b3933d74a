extension Publishers {
    /// Replaces a failure with a final value, as Combine's `Publishers.ReplaceError`.
    ///
    /// Values and `.finished` pass through. On failure the subscriber gets `output` followed by
    /// `.finished`; if it has no outstanding demand at that moment, both wait for its next
    /// request (demand is tracked for that purpose).
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// Never: failures are replaced.
        public typealias Failure = Never

        /// The value published in place of a failure.
        public let output: Upstream.Output
        /// The upstream publisher.
        public let upstream: Upstream

        /// Creates the operator.
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, replacement: output))
        }
    }
}

extension Publishers.ReplaceError {
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let lock = Lock()
        private var downstream: Downstream?
        private var upstream: Subscription?
        private let replacement: Upstream.Output
        private var demand = Subscribers.Demand.none
        private var replacementPending = false
        private var subscribed = false

        init(downstream: Downstream, replacement: Upstream.Output) {
            self.downstream = downstream
            self.replacement = replacement
        }

        var description: String { "ReplaceError" }

        func receive(subscription: Subscription) {
            lock.lock()
            guard !subscribed, let target = downstream else {
                lock.unlock()
                subscription.cancel()
                return
            }
            subscribed = true
            upstream = subscription
            lock.unlock()
            target.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            lock.lock()
            // Nothing before the subscription or after the upstream's completion.
            guard let target = downstream, upstream != nil else {
                lock.unlock()
                return .none
            }
            demand -= 1
            lock.unlock()
            let more = target.receive(input)
            lock.lock()
            demand += more
            lock.unlock()
            return more
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            lock.lock()
            guard let target = downstream, upstream != nil else {
                if !subscribed {
                    // Before the subscription (a precondition failure in Combine): dropped, and
                    // the stream is over (a later subscription is cancelled).
                    subscribed = true
                    let released = downstream
                    downstream = nil
                    lock.unlock()
                    withExtendedLifetime(released) {}
                    return
                }
                lock.unlock()
                return
            }
            upstream = nil
            switch completion {
            case .finished:
                downstream = nil
                lock.unlock()
                target.receive(completion: .finished)
            case .failure:
                guard demand > 0 else {
                    replacementPending = true
                    lock.unlock()
                    return
                }
                downstream = nil
                lock.unlock()
                _ = target.receive(replacement)
                target.receive(completion: .finished)
            }
        }

        func request(_ extra: Subscribers.Demand) {
            guard extra > 0 else { return }
            lock.lock()
            if replacementPending, let target = downstream {
                replacementPending = false
                downstream = nil
                lock.unlock()
                _ = target.receive(replacement)
                target.receive(completion: .finished)
                return
            }
            demand += extra
            let source = upstream
            lock.unlock()
            source?.request(extra)
        }

        func cancel() {
            lock.lock()
            let source = upstream
            let target = downstream
            upstream = nil
            downstream = nil
            replacementPending = false
            lock.unlock()
            source?.cancel()
            withExtendedLifetime(target) {}
        }
    }
}

extension Publisher {
    /// Replaces any failure with `output` followed by `.finished`, as Combine's
    /// `replaceError(with:)`.
    public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
