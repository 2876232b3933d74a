extension Publishers {
    /// Omits the first `count` values, as Combine's `Publishers.Drop` (from `dropFirst(_:)`).
    ///
    /// Demand, as Combine: the subscriber's first request is passed upstream increased by
    /// `count` (so the dropped values do not eat its demand); later requests pass unchanged.
    /// Completion passes through.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// How many values to omit.
        public let count: Int

        /// Creates the operator. A negative `count` is treated as zero.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = Swift.max(0, count)
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.Drop {
    final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let downstream: Downstream
        private let lock = OperatorLock()
        private var upstream: Subscription?
        private var requestedBefore = false
        private let count: Int
        // Touched only by the serial receive calls.
        private var remaining: Int

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
            self.remaining = count
        }

        var description: String { "Drop" }

        func receive(subscription: Subscription) {
            lock.lock()
            guard upstream == nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if remaining > 0 {
                remaining -= 1
                return .none
            }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            upstream = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let source = upstream
            let first = !requestedBefore
            requestedBefore = true
            lock.unlock()
            source?.request(first ? demand + count : demand)
        }

        func cancel() {
            lock.lock()
            let source = upstream
            upstream = nil
            lock.unlock()
            source?.cancel()
        }
    }
}

extension Publisher {
    /// Omits the first `count` values, as Combine's `dropFirst(_:)`.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}
