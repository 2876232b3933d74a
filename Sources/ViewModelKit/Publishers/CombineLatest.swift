extension Publishers {
    /// Combines the latest values of 2 publishers, as Combine's `Publishers.CombineLatest`.
    ///
    /// Emits nothing until every input has produced a value, then one tuple of the latest values
    /// per input value, within the downstream's demand (without demand only the newest tuple is
    /// kept). Finishes when every input has finished (or when an input finishes without ever
    /// producing a value); fails as soon as one input fails. Downstream calls may come from any
    /// input's thread but never overlap.
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

        /// Attaches `subscriber`; each subscriber subscribes to every input, in order.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombineLatestCore(downstream: subscriber, count: 2) { values in
                (values[0] as! A.Output, values[1] as! B.Output)
            }
            core.start()
            a.subscribe(core.child(0, A.Output.self))
            b.subscribe(core.child(1, B.Output.self))
        }
    }
}

extension Publishers {
    /// Combines the latest values of 3 publishers, as Combine's `Publishers.CombineLatest3`.
    ///
    /// Emits nothing until every input has produced a value, then one tuple of the latest values
    /// per input value, within the downstream's demand (without demand only the newest tuple is
    /// kept). Finishes when every input has finished (or when an input finishes without ever
    /// producing a value); fails as soon as one input fails. Downstream calls may come from any
    /// input's thread but never overlap.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher where A.Failure == B.Failure, A.Failure == C.Failure {
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
            let core = CombineLatestCore(downstream: subscriber, count: 3) { values in
                (values[0] as! A.Output, values[1] as! B.Output, values[2] as! C.Output)
            }
            core.start()
            a.subscribe(core.child(0, A.Output.self))
            b.subscribe(core.child(1, B.Output.self))
            c.subscribe(core.child(2, C.Output.self))
        }
    }
}

extension Publishers {
    /// Combines the latest values of 4 publishers, as Combine's `Publishers.CombineLatest4`.
    ///
    /// Emits nothing until every input has produced a value, then one tuple of the latest values
    /// per input value, within the downstream's demand (without demand only the newest tuple is
    /// kept). Finishes when every input has finished (or when an input finishes without ever
    /// producing a value); fails as soon as one input fails. Downstream calls may come from any
    /// input's thread but never overlap.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher where A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure {
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
            let core = CombineLatestCore(downstream: subscriber, count: 4) { values in
                (values[0] as! A.Output, values[1] as! B.Output, values[2] as! C.Output, values[3] as! D.Output)
            }
            core.start()
            a.subscribe(core.child(0, A.Output.self))
            b.subscribe(core.child(1, B.Output.self))
            c.subscribe(core.child(2, C.Output.self))
            d.subscribe(core.child(3, D.Output.self))
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
    public func combineLatest<P: Publisher, Q: Publisher>(_ publisher1: P, _ publisher2: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, publisher1, publisher2)
    }

    /// Combines the latest values of this publisher and 3 others, as Combine's `combineLatest`.
    /// See `Publishers.CombineLatest4`.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(_ publisher1: P, _ publisher2: Q, _ publisher3: R) -> Publishers.CombineLatest4<Self, P, Q, R>
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
        _ publisher1: P, _ publisher2: Q, _ publisher3: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T> where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map { transform($0.0, $0.1, $0.2, $0.3) }
    }
}
