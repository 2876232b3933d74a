extension Publishers {
    /// Publishes the greatest value under an ordering, once upstream finishes, as Combine's
    /// `Publishers.Comparison` (behind `min`, `max`, `min(by:)` and `max(by:)`).
    ///
    /// A value replaces the one kept when `areInIncreasingOrder(kept, value)` is true, so of
    /// several equal values the first is kept; `min` passes the ordering reversed. Asks upstream
    /// for `.unlimited`; on `.finished` publishes the kept value (nothing for an empty upstream)
    /// once the subscriber has demand, then `.finished`. A failure passes on at once.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// The upstream failure type.
        public typealias Failure = Upstream.Failure

        /// The compared publisher.
        public let upstream: Upstream
        /// True when the first argument orders before the second.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates the operator.
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ordered = areInIncreasingOrder
            upstream.subscribe(
                ReduceCore<Output, Output?, Failure, S>(
                    downstream: subscriber, name: "Comparison", initial: nil,
                    accumulate: { kept, value in
                        if let current = kept, !ordered(current, value) { return false }
                        kept = value
                        return false
                    },
                    output: { $0 }))
        }
    }

    /// As `Comparison`, with an ordering that may throw, as Combine's `Publishers.TryComparison`
    /// (behind `tryMin(by:)` and `tryMax(by:)`): a thrown error cancels upstream and fails the
    /// stream at once. An upstream failure is passed on as `any Error`.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The upstream output type.
        public typealias Output = Upstream.Output
        /// Any error: the upstream's or one thrown by the ordering.
        public typealias Failure = Error

        /// The compared publisher.
        public let upstream: Upstream
        /// True when the first argument orders before the second; may throw.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates the operator.
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Subscribes `subscriber`.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let ordered = areInIncreasingOrder
            upstream.subscribe(
                ReduceCore<Output, Output?, Upstream.Failure, S>(
                    throwingTo: subscriber, name: "TryComparison", initial: nil,
                    accumulate: { kept, value in
                        if let current = kept, try !ordered(current, value) { return false }
                        kept = value
                        return false
                    },
                    output: { $0 }))
        }
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the smallest value (the first of equal ones) when upstream finishes, as
    /// Combine's `min()`.
    public func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { kept, value in value < kept }
    }

    /// Publishes the largest value (the first of equal ones) when upstream finishes, as
    /// Combine's `max()`.
    public func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { kept, value in kept < value }
    }
}

extension Publisher {
    /// Publishes the smallest value under `areInIncreasingOrder` when upstream finishes, as
    /// Combine's `min(by:)`.
    public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self) { kept, value in areInIncreasingOrder(value, kept) }
    }

    /// Publishes the largest value under `areInIncreasingOrder` when upstream finishes, as
    /// Combine's `max(by:)`.
    public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool) -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }

    /// `min(by:)` with an ordering that may throw, as Combine's `tryMin(by:)`.
    public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self) { kept, value in try areInIncreasingOrder(value, kept) }
    }

    /// `max(by:)` with an ordering that may throw, as Combine's `tryMax(by:)`.
    public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
        -> Publishers.TryComparison<Self>
    {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
