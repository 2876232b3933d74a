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
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let count: Int
        private var requestedBefore = false
        // Touched only by the serial receive calls.
        private var remaining: Int

        init(downstream: Downstream, count: Int) {
            self.count = count
            remaining = count
            super.init(downstream: downstream, name: "Drop")
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard isLive else { return .none }
            if remaining > 0 {
                remaining -= 1
                return .none
            }
            return downstream?.receive(input) ?? .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            forward(completion)
        }

        override func request(_ demand: Subscribers.Demand) {
            let first = lock.withLock { () -> Bool in
                defer { requestedBefore = true }
                return !requestedBefore
            }
            super.request(first ? demand + count : demand)
        }
    }
}

extension Publisher {
    /// Omits the first `count` values, as Combine's `dropFirst(_:)`.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}
