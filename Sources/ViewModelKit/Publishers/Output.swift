extension Publishers {
    /// Republishes the values whose positions fall in a range, then finishes, as Combine's
    /// `Publishers.Output` (behind `output(at:)`, `output(in:)` and `prefix(_:)`).
    ///
    /// Values before the range are dropped (each asks upstream for one more); when the last
    /// position of the range has been published, upstream is cancelled and the subscriber gets
    /// `.finished`. An empty range finishes as soon as the subscription arrives. Demand otherwise
    /// passes straight through.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The upstream publisher.
        public let upstream: Upstream
        /// The zero-based positions republished.
        public let range: CountableRange<Int>

        /// Creates the operator. Traps if `range` starts below zero, as Combine does.
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "Publishers.Output: negative lower bound \(range.lowerBound)")
            self.upstream = upstream
            self.range = range
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output {
    final class Inner<Downstream: Subscriber>: UpstreamRelay<Downstream>, Subscriber, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let range: CountableRange<Int>
        // Touched only by the serial receive calls.
        private var index = 0
        private var finished = false

        init(downstream: Downstream, range: CountableRange<Int>) {
            self.range = range
            super.init(downstream: downstream, name: "Output")
        }

        override func receive(subscription: Subscription) {
            super.receive(subscription: subscription)
            if range.isEmpty { finish() }
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if finished || !isLive { return .none }
            let position = index
            index += 1
            if position < range.lowerBound { return .max(1) }
            guard index >= range.upperBound else { return downstream?.receive(input) ?? .none }
            // The last position: the operator is done before the value goes out, so a value sent
            // back in from inside the subscriber's `receive` is ignored, as in Combine.
            finished = true
            _ = downstream?.receive(input)
            end()
            return .none
        }

        /// The range is done: cancels upstream and finishes.
        private func finish() {
            if finished { return }
            finished = true
            end()
        }

        private func end() {
            takeUpstream()?.cancel()
            complete(.finished)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if finished { return }
            finished = true
            forward(completion)
        }
    }
}

extension Publisher {
    /// Republishes only the value at position `index` (zero-based), then finishes, as Combine's
    /// `output(at:)`.
    public func output(at index: Int) -> Publishers.Output<Self> {
        Publishers.Output(upstream: self, range: index..<(index + 1))
    }

    /// Republishes the values at the positions in `range`, then finishes, as Combine's
    /// `output(in:)`.
    public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Republishes at most the first `maxLength` values, then finishes, as Combine's
    /// `prefix(_:)` (which Combine also builds on `Publishers.Output`).
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        Publishers.Output(upstream: self, range: 0..<Swift.max(0, maxLength))
    }
}
