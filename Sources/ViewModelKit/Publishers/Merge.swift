extension Publishers {
    /// Interleaves the values of 2 publishers of the same type, as Combine's `Publishers.Merge`.
    ///
    /// Values are delivered one at a time in arrival order, within the downstream's demand
    /// (surplus values wait, at most one per upstream). Finishes after every upstream has
    /// finished; fails as soon as one upstream fails, cancelling the others. Downstream calls may
    /// come from any upstream's thread but never overlap.
    public struct Merge<A: Publisher, B: Publisher>: Publisher
    where A.Output == B.Output, A.Failure == B.Failure {
        /// The common output type.
        public typealias Output = A.Output
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Upstream number 1.
        public let a: A
        /// Upstream number 2.
        public let b: B

        /// Merges the given publishers.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber` to the merged stream; each subscriber subscribes to every upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(subscriber, [a.subscribe, b.subscribe])
        }
    }
}

extension Publishers {
    /// Interleaves the values of 3 publishers of the same type, as Combine's `Publishers.Merge3`.
    ///
    /// Values are delivered one at a time in arrival order, within the downstream's demand
    /// (surplus values wait, at most one per upstream). Finishes after every upstream has
    /// finished; fails as soon as one upstream fails, cancelling the others. Downstream calls may
    /// come from any upstream's thread but never overlap.
    public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        A.Output == C.Output, A.Failure == C.Failure
    {
        /// The common output type.
        public typealias Output = A.Output
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Upstream number 1.
        public let a: A
        /// Upstream number 2.
        public let b: B
        /// Upstream number 3.
        public let c: C

        /// Merges the given publishers.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches `subscriber` to the merged stream; each subscriber subscribes to every upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(subscriber, [a.subscribe, b.subscribe, c.subscribe])
        }
    }
}

extension Publishers {
    /// Interleaves the values of 4 publishers of the same type, as Combine's `Publishers.Merge4`.
    ///
    /// Values are delivered one at a time in arrival order, within the downstream's demand
    /// (surplus values wait, at most one per upstream). Finishes after every upstream has
    /// finished; fails as soon as one upstream fails, cancelling the others. Downstream calls may
    /// come from any upstream's thread but never overlap.
    public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure
    {
        /// The common output type.
        public typealias Output = A.Output
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Upstream number 1.
        public let a: A
        /// Upstream number 2.
        public let b: B
        /// Upstream number 3.
        public let c: C
        /// Upstream number 4.
        public let d: D

        /// Merges the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Attaches `subscriber` to the merged stream; each subscriber subscribes to every upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe])
        }
    }
}

extension Publishers {
    /// Interleaves the values of 5 publishers of the same type, as Combine's `Publishers.Merge5`.
    ///
    /// Values are delivered one at a time in arrival order, within the downstream's demand
    /// (surplus values wait, at most one per upstream). Finishes after every upstream has
    /// finished; fails as soon as one upstream fails, cancelling the others. Downstream calls may
    /// come from any upstream's thread but never overlap.
    public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure,
        A.Output == E.Output, A.Failure == E.Failure
    {
        /// The common output type.
        public typealias Output = A.Output
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Upstream number 1.
        public let a: A
        /// Upstream number 2.
        public let b: B
        /// Upstream number 3.
        public let c: C
        /// Upstream number 4.
        public let d: D
        /// Upstream number 5.
        public let e: E

        /// Merges the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        /// Attaches `subscriber` to the merged stream; each subscriber subscribes to every upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe])
        }
    }
}

extension Publishers {
    /// Interleaves the values of 6 publishers of the same type, as Combine's `Publishers.Merge6`.
    ///
    /// Values are delivered one at a time in arrival order, within the downstream's demand
    /// (surplus values wait, at most one per upstream). Finishes after every upstream has
    /// finished; fails as soon as one upstream fails, cancelling the others. Downstream calls may
    /// come from any upstream's thread but never overlap.
    public struct Merge6<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure,
        A.Output == E.Output, A.Failure == E.Failure,
        A.Output == F.Output, A.Failure == F.Failure
    {
        /// The common output type.
        public typealias Output = A.Output
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Upstream number 1.
        public let a: A
        /// Upstream number 2.
        public let b: B
        /// Upstream number 3.
        public let c: C
        /// Upstream number 4.
        public let d: D
        /// Upstream number 5.
        public let e: E
        /// Upstream number 6.
        public let f: F

        /// Merges the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        /// Attaches `subscriber` to the merged stream; each subscriber subscribes to every upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe, f.subscribe])
        }
    }
}

extension Publishers {
    /// Interleaves the values of 7 publishers of the same type, as Combine's `Publishers.Merge7`.
    ///
    /// Values are delivered one at a time in arrival order, within the downstream's demand
    /// (surplus values wait, at most one per upstream). Finishes after every upstream has
    /// finished; fails as soon as one upstream fails, cancelling the others. Downstream calls may
    /// come from any upstream's thread but never overlap.
    public struct Merge7<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure,
        A.Output == E.Output, A.Failure == E.Failure,
        A.Output == F.Output, A.Failure == F.Failure,
        A.Output == G.Output, A.Failure == G.Failure
    {
        /// The common output type.
        public typealias Output = A.Output
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Upstream number 1.
        public let a: A
        /// Upstream number 2.
        public let b: B
        /// Upstream number 3.
        public let c: C
        /// Upstream number 4.
        public let d: D
        /// Upstream number 5.
        public let e: E
        /// Upstream number 6.
        public let f: F
        /// Upstream number 7.
        public let g: G

        /// Merges the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        /// Attaches `subscriber` to the merged stream; each subscriber subscribes to every upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(
                subscriber, [a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe, f.subscribe, g.subscribe])
        }
    }
}

extension Publishers {
    /// Interleaves the values of 8 publishers of the same type, as Combine's `Publishers.Merge8`.
    ///
    /// Values are delivered one at a time in arrival order, within the downstream's demand
    /// (surplus values wait, at most one per upstream). Finishes after every upstream has
    /// finished; fails as soon as one upstream fails, cancelling the others. Downstream calls may
    /// come from any upstream's thread but never overlap.
    public struct Merge8<
        A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >: Publisher
    where
        A.Output == B.Output, A.Failure == B.Failure,
        A.Output == C.Output, A.Failure == C.Failure,
        A.Output == D.Output, A.Failure == D.Failure,
        A.Output == E.Output, A.Failure == E.Failure,
        A.Output == F.Output, A.Failure == F.Failure,
        A.Output == G.Output, A.Failure == G.Failure,
        A.Output == H.Output, A.Failure == H.Failure
    {
        /// The common output type.
        public typealias Output = A.Output
        /// The common failure type.
        public typealias Failure = A.Failure

        /// Upstream number 1.
        public let a: A
        /// Upstream number 2.
        public let b: B
        /// Upstream number 3.
        public let c: C
        /// Upstream number 4.
        public let d: D
        /// Upstream number 5.
        public let e: E
        /// Upstream number 6.
        public let f: F
        /// Upstream number 7.
        public let g: G
        /// Upstream number 8.
        public let h: H

        /// Merges the given publishers.
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Attaches `subscriber` to the merged stream; each subscriber subscribes to every upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribeMerged(
                subscriber,
                [
                    a.subscribe, b.subscribe, c.subscribe, d.subscribe, e.subscribe, f.subscribe, g.subscribe,
                    h.subscribe,
                ])
        }
    }
}

extension Publisher {
    /// Merges this publisher with 1 other of the same output and failure, as Combine's
    /// `merge(with:)`. See `Publishers.Merge`.
    public func merge<B: Publisher>(with other: B) -> Publishers.Merge<Self, B>
    where B.Output == Output, B.Failure == Failure {
        Publishers.Merge(self, other)
    }

    /// Merges this publisher with 2 others of the same output and failure, as Combine's
    /// `merge(with:)`. See `Publishers.Merge3`.
    public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
        Publishers.Merge3(self, b, c)
    }

    /// Merges this publisher with 3 others of the same output and failure, as Combine's
    /// `merge(with:)`. See `Publishers.Merge4`.
    public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D)
        -> Publishers.Merge4<Self, B, C, D>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure
    {
        Publishers.Merge4(self, b, c, d)
    }

    /// Merges this publisher with 4 others of the same output and failure, as Combine's
    /// `merge(with:)`. See `Publishers.Merge5`.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(with b: B, _ c: C, _ d: D, _ e: E)
        -> Publishers.Merge5<Self, B, C, D, E>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure
    {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Merges this publisher with 5 others of the same output and failure, as Combine's
    /// `merge(with:)`. See `Publishers.Merge6`.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) -> Publishers.Merge6<Self, B, C, D, E, F>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure
    {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Merges this publisher with 6 others of the same output and failure, as Combine's
    /// `merge(with:)`. See `Publishers.Merge7`.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
        G.Output == Output, G.Failure == Failure
    {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Merges this publisher with 7 others of the same output and failure, as Combine's
    /// `merge(with:)`. See `Publishers.Merge8`.
    public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher>(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure, D.Output == Output,
        D.Failure == Failure, E.Output == Output, E.Failure == Failure, F.Output == Output, F.Failure == Failure,
        G.Output == Output, G.Failure == Failure, H.Output == Output, H.Failure == Failure
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}
