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

        /// Attaches `subscriber`; each subscriber subscribes to every input, in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombiningCore<S, ZipRule>(downstream: subscriber, count: 2) {
                ($0[0] as! A.Output, $0[1] as! B.Output)
            }
            a.subscribe(core.child(0))
            b.subscribe(core.child(1))
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

        /// Attaches `subscriber`; each subscriber subscribes to every input, in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombiningCore<S, ZipRule>(downstream: subscriber, count: 3) {
                ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
            }
            a.subscribe(core.child(0))
            b.subscribe(core.child(1))
            c.subscribe(core.child(2))
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

        /// Attaches `subscriber`; each subscriber subscribes to every input, in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombiningCore<S, ZipRule>(downstream: subscriber, count: 4) {
                ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
            }
            a.subscribe(core.child(0))
            b.subscribe(core.child(1))
            c.subscribe(core.child(2))
            d.subscribe(core.child(3))
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
/// every input; unmatched values wait in per-input buffers. Exhausted as soon as an input has
/// finished and its buffer is empty (no further tuple can form).
struct ZipRule: CombiningRule {
    private var buffers: [[Any]]

    init(count: Int) {
        buffers = Array(repeating: [], count: count)
    }

    mutating func store(_ value: Any, at index: Int, demand: Subscribers.Demand) -> (Subscribers.Demand, [Any]?) {
        buffers[index].append(value)
        return (.none, nil)
    }

    /// Fast path: a value completing a combination is delivered without being buffered.
    mutating func takeImmediate(_ value: Any, at index: Int) -> (Subscribers.Demand, [Any]?)? {
        guard buffers[index].isEmpty else { return nil }
        for other in buffers.indices where other != index && buffers[other].isEmpty {
            buffers[index].append(value)
            return (.none, nil)
        }
        var combination: [Any] = []
        combination.reserveCapacity(buffers.count)
        for other in buffers.indices {
            combination.append(other == index ? value : buffers[other].removeFirst())
        }
        return (.none, combination)
    }

    /// A value sent from inside the downstream's `receive(_:)` is queued like any other: it pairs
    /// with at most one value of every other input, so it cannot loop.
    mutating func storeReentrant(_ value: Any, at index: Int) -> Any? {
        buffers[index].append(value)
        return nil
    }

    mutating func next() -> [Any]? {
        guard !buffers.contains(where: { $0.isEmpty }) else { return nil }
        return buffers.indices.map { buffers[$0].removeFirst() }
    }

    func isExhausted(finished: [Bool]) -> Bool {
        buffers.indices.contains { finished[$0] && buffers[$0].isEmpty }
    }

    mutating func removeAll() -> [[Any]] {
        defer { buffers = buffers.map { _ in [] } }
        return buffers
    }
}
