extension Publishers {
    /// Collects values into arrays of `count`, as Combine's `Publishers.CollectByCount`.
    ///
    /// Demand, as Combine: a request for `n` arrays asks upstream for `n * count` values
    /// (saturating). Each full group is published at once; when upstream finishes, a partial
    /// last group (if any) is published, then `.finished`. A failure passes on at once and the
    /// partial group is dropped. Values are delivered on the upstream's thread.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// One group of consecutive values.
        public typealias Output = [Upstream.Output]
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// The size of each group (at least 1).
        public let count: Int

        /// Creates the operator. Traps if `count` is less than 1 (a group must hold something).
        public init(upstream: Upstream, count: Int) {
            precondition(count > 0, "Publishers.CollectByCount: count must be positive (\(count))")
            self.upstream = upstream
            self.count = count
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount {
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let count: Int
        // Touched only by the serial receive calls.
        private var group: [Input] = []
        private var ended = false

        init(downstream: Downstream, count: Int) {
            self.count = count
            super.init(downstream: downstream, name: "CollectByCount")
            group.reserveCapacity(count)
        }

        /// As Combine reflects it: `downstream`, `upstreamSubscription`, `buffer` (the group
        /// so far) and `count`. A debugging snapshot: `buffer` is read without the receive
        /// calls' ordering.
        override var customMirror: Mirror {
            let source = lock.withLock { upstream }
            let children: KeyValuePairs<String, Any> = [
                "downstream": reflectedDownstream, "upstreamSubscription": source as Any, "buffer": group,
                "count": count,
            ]
            return Mirror(self, children: children)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            // Nothing after the end or once the subscriber cancelled (upstream is then forgotten).
            if ended || lock.withLock({ upstream == nil }) { return .none }
            group.append(input)
            guard group.count == count else { return .none }
            let full = group
            group.removeAll(keepingCapacity: true)
            return Self.scaled(downstream?.receive(full) ?? .none, by: count)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            if ended || !admitsCompletion() { return }
            ended = true
            if case .finished = completion, !group.isEmpty {
                let partial = group
                group = []
                _ = downstream?.receive(partial) ?? .none
            }
            forward(completion)
        }

        override func request(_ demand: Subscribers.Demand) {
            super.request(Self.scaled(demand, by: count))
        }

        /// `demand` groups in values: `demand * count`, saturating at `.unlimited`.
        private static func scaled(_ demand: Subscribers.Demand, by count: Int) -> Subscribers.Demand {
            guard let groups = demand.max else { return .unlimited }
            let (values, overflow) = groups.multipliedReportingOverflow(by: count)
            return overflow ? .unlimited : .max(values)
        }
    }
}

extension Publisher {
    /// Collects values into arrays of at most `count`, as Combine's `collect(_:)`. See
    /// `Publishers.CollectByCount`.
    public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
