extension Publishers {
    /// Pairs up the values of 2 publishers by position, as Combine's `Publishers.Zip`.
    ///
    /// The k-th output holds the k-th value of every input; unmatched values wait. Downstream
    /// demand is forwarded to every input. Finishes as soon as an input has finished and none of
    /// its values wait; fails as soon as one input fails. Downstream calls may come from any
    /// input's thread but never overlap.
    public struct Zip<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
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
        @usableFromInline typealias Rule = ZipRule<Slots2<QueueSlot<A.Output>, QueueSlot<B.Output>>>

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
    /// Pairs up the values of 3 publishers by position, as Combine's `Publishers.Zip3`.
    ///
    /// The k-th output holds the k-th value of every input; unmatched values wait. Downstream
    /// demand is forwarded to every input. Finishes as soon as an input has finished and none of
    /// its values wait; fails as soon as one input fails. Downstream calls may come from any
    /// input's thread but never overlap.
    public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
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
        @usableFromInline typealias Rule = ZipRule<
            Slots3<QueueSlot<A.Output>, QueueSlot<B.Output>, QueueSlot<C.Output>>
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
    /// Pairs up the values of 4 publishers by position, as Combine's `Publishers.Zip4`.
    ///
    /// The k-th output holds the k-th value of every input; unmatched values wait. Downstream
    /// demand is forwarded to every input. Finishes as soon as an input has finished and none of
    /// its values wait; fails as soon as one input fails. Downstream calls may come from any
    /// input's thread but never overlap.
    public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
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
        @usableFromInline typealias Rule = ZipRule<
            Slots4<QueueSlot<A.Output>, QueueSlot<B.Output>, QueueSlot<C.Output>, QueueSlot<D.Output>>
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
    /// Pairs up the values of this publisher and 1 other, as Combine's `zip`.
    /// See `Publishers.Zip`.
    public func zip<P: Publisher>(_ other: P) -> Publishers.Zip<Self, P>
    where P.Failure == Failure {
        Publishers.Zip(self, other)
    }

    /// Pairs up the values of this publisher and 2 others, as Combine's `zip`.
    /// See `Publishers.Zip3`.
    public func zip<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.Zip3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, publisher1, publisher2)
    }

    /// Pairs up the values of this publisher and 3 others, as Combine's `zip`.
    /// See `Publishers.Zip4`.
    public func zip<P: Publisher, Q: Publisher, R: Publisher>(_ publisher1: P, _ publisher2: Q, _ publisher3: R)
        -> Publishers.Zip4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }
}

extension Publisher {
    /// Pairs up the values of this publisher and 1 other and maps each tuple with `transform`,
    /// as Combine's `zip` with a transform (`transform` runs on the delivering thread).
    public func zip<P: Publisher, T>(
        _ other: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T> where P.Failure == Failure {
        Publishers.Zip(self, other).map { transform($0.0, $0.1) }
    }

    /// Pairs up the values of this publisher and 2 others and maps each tuple with `transform`,
    /// as Combine's `zip` with a transform (`transform` runs on the delivering thread).
    public func zip<P: Publisher, Q: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        Publishers.Zip3(self, publisher1, publisher2).map { transform($0.0, $0.1, $0.2) }
    }

    /// Pairs up the values of this publisher and 3 others and maps each tuple with `transform`,
    /// as Combine's `zip` with a transform (`transform` runs on the delivering thread).
    public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3).map { transform($0.0, $0.1, $0.2, $0.3) }
    }
}

/// `zip`'s rule for `CombiningCore`, as Combine's: the k-th output combines the k-th value of
/// every input; unmatched values wait in per-input queues (`Slots` holds one `QueueSlot` per
/// input, typed). Exhausted as soon as an input has finished and its queue is empty (no further
/// tuple can form). The value path is inlinable (see `CombiningCore`).
@usableFromInline
struct ZipRule<Slots: CombiningSlots>: CombiningRule {
    @usableFromInline typealias Output = Slots.Output

    @usableFromInline var queues = Slots()

    @inlinable static var arity: Int { Slots.arity }
    @usableFromInline static var name: String { "Zip" }

    @inlinable init() {}

    /// Fast path: a value completing a combination is delivered at once. (With demand and
    /// nobody delivering, no complete combination waits, so the oldest of each queue pairs
    /// with this value.)
    @inlinable
    mutating func takeImmediate(_ carried: UnsafeMutableRawPointer, at index: Int) -> (Subscribers.Demand, Output?)? {
        queues.put(carried, at: index)
        return (.none, queues.allReady ? queues.take() : nil)
    }

    @inlinable
    mutating func store(_ carried: UnsafeMutableRawPointer, at index: Int, demand: Subscribers.Demand)
        -> (Subscribers.Demand, Output?)
    {
        queues.put(carried, at: index)
        return (.none, nil)
    }

    /// A value sent from inside the downstream's `receive(_:)` is queued like any other: it pairs
    /// with at most one value of every other input, so it cannot loop.
    @inlinable
    mutating func storeReentrant(_ carried: UnsafeMutableRawPointer, at index: Int) {
        queues.put(carried, at: index)
    }

    @inlinable var hasNext: Bool { queues.allReady }

    @inlinable
    mutating func next() -> Output? {
        queues.allReady ? queues.take() : nil
    }

    @inlinable
    func isExhausted(finished: [Bool]) -> Bool {
        finished.indices.contains { finished[$0] && !queues.isReady(at: $0) }
    }
}
