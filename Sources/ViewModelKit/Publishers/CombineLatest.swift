extension Publishers {
    /// Combines the latest values of 2 publishers, as Combine's `Publishers.CombineLatest`.
    ///
    /// Emits nothing until every input has produced a value, then one tuple of the latest values
    /// per input value, within the downstream's demand (a tuple formed without demand is dropped,
    /// as in Combine). Finishes when every input has finished; fails as soon as one input fails.
    /// Downstream calls may come from any input's thread but never overlap.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// A tuple with one value per input.
        public typealias Output = (A.Output, B.Output)
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Input number 1.
        public let a: A
        /// Input number 2.
        public let b: B

        /// Combines the given publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// The typed storage of the combination (inputs' values kept unboxed).
        @usableFromInline typealias Rule = CombineLatestRule<Slots2<LatestSlot<A.Output>, LatestSlot<B.Output>>>

        /// Attaches `subscriber`; each subscriber subscribes to every input, in order.
        ///
        /// Inlinable, so that a client specialises the value path for its own types
        /// (docs/DESIGN-NOTES.md, "Inlinable hot paths"). The inputs get `receive(subscriber:)`
        /// rather than `subscribe(_:)`, as in `Publishers.Map`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombiningCore<S, Rule>(downstream: subscriber)
            a.receive(subscriber: core.child(0))
            b.receive(subscriber: core.child(1))
        }
    }
}

extension Publishers {
    /// Combines the latest values of 3 publishers, as Combine's `Publishers.CombineLatest3`.
    ///
    /// Emits nothing until every input has produced a value, then one tuple of the latest values
    /// per input value, within the downstream's demand (a tuple formed without demand is dropped,
    /// as in Combine). Finishes when every input has finished; fails as soon as one input fails.
    /// Downstream calls may come from any input's thread but never overlap.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure {
        /// A tuple with one value per input.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Input number 1.
        public let a: A
        /// Input number 2.
        public let b: B
        /// Input number 3.
        public let c: C

        /// Combines the given publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// The typed storage of the combination (inputs' values kept unboxed).
        @usableFromInline typealias Rule = CombineLatestRule<
            Slots3<LatestSlot<A.Output>, LatestSlot<B.Output>, LatestSlot<C.Output>>
        >

        /// Attaches `subscriber`; each subscriber subscribes to every input, in order.
        ///
        /// Inlinable, so that a client specialises the value path for its own types
        /// (docs/DESIGN-NOTES.md, "Inlinable hot paths"). The inputs get `receive(subscriber:)`
        /// rather than `subscribe(_:)`, as in `Publishers.Map`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombiningCore<S, Rule>(downstream: subscriber)
            a.receive(subscriber: core.child(0))
            b.receive(subscriber: core.child(1))
            c.receive(subscriber: core.child(2))
        }
    }
}

extension Publishers {
    /// Combines the latest values of 4 publishers, as Combine's `Publishers.CombineLatest4`.
    ///
    /// Emits nothing until every input has produced a value, then one tuple of the latest values
    /// per input value, within the downstream's demand (a tuple formed without demand is dropped,
    /// as in Combine). Finishes when every input has finished; fails as soon as one input fails.
    /// Downstream calls may come from any input's thread but never overlap.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
        /// A tuple with one value per input.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Input number 1.
        public let a: A
        /// Input number 2.
        public let b: B
        /// Input number 3.
        public let c: C
        /// Input number 4.
        public let d: D

        /// Combines the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// The typed storage of the combination (inputs' values kept unboxed).
        @usableFromInline typealias Rule = CombineLatestRule<
            Slots4<LatestSlot<A.Output>, LatestSlot<B.Output>, LatestSlot<C.Output>, LatestSlot<D.Output>>
        >

        /// Attaches `subscriber`; each subscriber subscribes to every input, in order.
        ///
        /// Inlinable, so that a client specialises the value path for its own types
        /// (docs/DESIGN-NOTES.md, "Inlinable hot paths"). The inputs get `receive(subscriber:)`
        /// rather than `subscribe(_:)`, as in `Publishers.Map`.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombiningCore<S, Rule>(downstream: subscriber)
            a.receive(subscriber: core.child(0))
            b.receive(subscriber: core.child(1))
            c.receive(subscriber: core.child(2))
            d.receive(subscriber: core.child(3))
        }
    }
}

extension Publisher {
    /// Combines the latest values of this publisher and 1 other, as Combine's `combineLatest`.
    /// See `Publishers.CombineLatest`.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Combines the latest values of this publisher and 2 others, as Combine's `combineLatest`.
    /// See `Publishers.CombineLatest3`.
    public func combineLatest<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q)
        -> Publishers.CombineLatest3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Combines the latest values of this publisher and 3 others, as Combine's `combineLatest`.
    /// See `Publishers.CombineLatest4`.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }
}

extension Publisher {
    /// Combines the latest values of this publisher and 1 other and maps each tuple with `transform`,
    /// as Combine's `combineLatest` with a transform (`transform` runs on the delivering thread).
    public func combineLatest<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        Publishers.CombineLatest(self, other).map { transform($0.0, $0.1) }
    }

    /// Combines the latest values of this publisher and 2 others and maps each tuple with `transform`,
    /// as Combine's `combineLatest` with a transform (`transform` runs on the delivering thread).
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2).map { transform($0.0, $0.1, $0.2) }
    }

    /// Combines the latest values of this publisher and 3 others and maps each tuple with `transform`,
    /// as Combine's `combineLatest` with a transform (`transform` runs on the delivering thread).
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map { transform($0.0, $0.1, $0.2, $0.3) }
    }
}

/// `combineLatest`'s rule for `CombiningCore`, as Combine's:
/// - Nothing is emitted until every input has produced a value; afterwards each new input value
///   produces one combination of the latest values. Every value gets `.none` back (a value that
///   forms no combination asks its input for nothing more, as Combine's).
/// - Combinations are snapshotted when formed and queued up to the outstanding demand (so
///   concurrent inputs lose none while demand lasts); one formed beyond it is dropped, not kept
///   for later, as Combine's (OpenCombine's `CombineLatestTests.testUpstreamExceedsDemand`,
///   which runs against Combine). The latest values stay, so the next input value after demand
///   arrives combines them.
/// - Exhausted when every input has finished and nothing is queued (Combine's documented rule:
///   an input that finishes without a value does not end the stream early).
///
/// `Slots` holds one `LatestSlot` per input; the value path is inlinable (see `CombiningCore`).
@usableFromInline
struct CombineLatestRule<Slots: CombiningSlots>: CombiningRule {
    @usableFromInline typealias Output = Slots.Output

    /// The latest value of each input.
    @usableFromInline var latest = Slots()
    /// The combinations waiting to be delivered (zip's queue: a delivered one is released at
    /// once, and a queue that never empties drops its delivered front).
    @usableFromInline var queued = QueueSlot<Output>()

    @inlinable static var arity: Int { Slots.arity }
    @usableFromInline static var name: String { "CombineLatest" }

    @inlinable init() {}

    @inlinable var queuedCount: Int { queued.count }

    @inlinable
    mutating func takeImmediate(_ carried: UnsafeMutableRawPointer, at index: Int) -> (Subscribers.Demand, Output?)? {
        guard !queued.isReady else { return nil }
        latest.put(carried, at: index)
        guard latest.allReady else { return (.none, nil) }
        return (.none, latest.take())
    }

    @inlinable
    mutating func store(_ carried: UnsafeMutableRawPointer, at index: Int, demand: Subscribers.Demand)
        -> (Subscribers.Demand, Output?)
    {
        latest.put(carried, at: index)
        guard latest.allReady else { return (.none, nil) }
        let snapshot = latest.take()
        if demand > queuedCount {
            var carried: Output? = snapshot
            queued.put(&carried)
            return (.none, nil)
        }
        // Beyond the demand: dropped, as in Combine (released after the lock).
        return (.none, snapshot)
    }

    @inlinable
    mutating func storeReentrant(_ carried: UnsafeMutableRawPointer, at index: Int) {
        latest.put(carried, at: index)
    }

    @inlinable var hasNext: Bool { queued.isReady }

    @inlinable
    mutating func next() -> Output? {
        guard queued.isReady else { return nil }
        return queued.take()
    }

    @inlinable
    func isExhausted(finished: [Bool]) -> Bool {
        queuedCount == 0 && !finished.contains(false)
    }
}
