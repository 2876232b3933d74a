// Combine's specialisations of `merge(with:)` on the `Merge` family: merging more publishers
// into a `MergeN` gives the `Merge` of the next arity over all the upstreams (flat, not nested),
// with Combine's result types. Values, demand and completion are those of that `Merge`.

extension Publishers.Merge {
    /// Merges another publisher in: one `Merge3`, as Combine's specialisation.
    public func merge<P: Publisher>(with p: P) -> Publishers.Merge3<A, B, P>
    where B.Output == P.Output, B.Failure == P.Failure {
        .init(a, b, p)
    }

    /// Merges 2 more publishers in: one `Merge4`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher>(with p: P, _ q: Q) -> Publishers.Merge4<A, B, P, Q>
    where B.Output == P.Output, B.Failure == P.Failure, B.Output == Q.Output, B.Failure == Q.Failure {
        .init(a, b, p, q)
    }

    /// Merges 3 more publishers in: one `Merge5`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher>(with p: P, _ q: Q, _ r: R)
        -> Publishers.Merge5<A, B, P, Q, R>
    where
        B.Output == P.Output, B.Failure == P.Failure, B.Output == Q.Output, B.Failure == Q.Failure,
        B.Output == R.Output, B.Failure == R.Failure
    {
        .init(a, b, p, q, r)
    }

    /// Merges 4 more publishers in: one `Merge6`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher, S: Publisher>(with p: P, _ q: Q, _ r: R, _ s: S)
        -> Publishers.Merge6<A, B, P, Q, R, S>
    where
        B.Output == P.Output, B.Failure == P.Failure, B.Output == Q.Output, B.Failure == Q.Failure,
        B.Output == R.Output, B.Failure == R.Failure, B.Output == S.Output, B.Failure == S.Failure
    {
        .init(a, b, p, q, r, s)
    }

    /// Merges 5 more publishers in: one `Merge7`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher, S: Publisher, T: Publisher>(
        with p: P, _ q: Q, _ r: R, _ s: S, _ t: T
    ) -> Publishers.Merge7<A, B, P, Q, R, S, T>
    where
        B.Output == P.Output, B.Failure == P.Failure, B.Output == Q.Output, B.Failure == Q.Failure,
        B.Output == R.Output, B.Failure == R.Failure, B.Output == S.Output, B.Failure == S.Failure,
        B.Output == T.Output, B.Failure == T.Failure
    {
        .init(a, b, p, q, r, s, t)
    }

    /// Merges 6 more publishers in: one `Merge8`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher, S: Publisher, T: Publisher, U: Publisher>(
        with p: P, _ q: Q, _ r: R, _ s: S, _ t: T, _ u: U
    ) -> Publishers.Merge8<A, B, P, Q, R, S, T, U>
    where
        B.Output == P.Output, B.Failure == P.Failure, B.Output == Q.Output, B.Failure == Q.Failure,
        B.Output == R.Output, B.Failure == R.Failure, B.Output == S.Output, B.Failure == S.Failure,
        B.Output == T.Output, B.Failure == T.Failure, B.Output == U.Output, B.Failure == U.Failure
    {
        .init(a, b, p, q, r, s, t, u)
    }
}

extension Publishers.Merge3 {
    /// Merges another publisher in: one `Merge4`, as Combine's specialisation.
    public func merge<P: Publisher>(with p: P) -> Publishers.Merge4<A, B, C, P>
    where C.Output == P.Output, C.Failure == P.Failure {
        .init(a, b, c, p)
    }

    /// Merges 2 more publishers in: one `Merge5`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher>(with p: P, _ q: Q) -> Publishers.Merge5<A, B, C, P, Q>
    where C.Output == P.Output, C.Failure == P.Failure, C.Output == Q.Output, C.Failure == Q.Failure {
        .init(a, b, c, p, q)
    }

    /// Merges 3 more publishers in: one `Merge6`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher>(with p: P, _ q: Q, _ r: R)
        -> Publishers.Merge6<A, B, C, P, Q, R>
    where
        C.Output == P.Output, C.Failure == P.Failure, C.Output == Q.Output, C.Failure == Q.Failure,
        C.Output == R.Output, C.Failure == R.Failure
    {
        .init(a, b, c, p, q, r)
    }

    /// Merges 4 more publishers in: one `Merge7`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher, S: Publisher>(with p: P, _ q: Q, _ r: R, _ s: S)
        -> Publishers.Merge7<A, B, C, P, Q, R, S>
    where
        C.Output == P.Output, C.Failure == P.Failure, C.Output == Q.Output, C.Failure == Q.Failure,
        C.Output == R.Output, C.Failure == R.Failure, C.Output == S.Output, C.Failure == S.Failure
    {
        .init(a, b, c, p, q, r, s)
    }

    /// Merges 5 more publishers in: one `Merge8`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher, S: Publisher, T: Publisher>(
        with p: P, _ q: Q, _ r: R, _ s: S, _ t: T
    ) -> Publishers.Merge8<A, B, C, P, Q, R, S, T>
    where
        C.Output == P.Output, C.Failure == P.Failure, C.Output == Q.Output, C.Failure == Q.Failure,
        C.Output == R.Output, C.Failure == R.Failure, C.Output == S.Output, C.Failure == S.Failure,
        C.Output == T.Output, C.Failure == T.Failure
    {
        .init(a, b, c, p, q, r, s, t)
    }
}

extension Publishers.Merge4 {
    /// Merges another publisher in: one `Merge5`, as Combine's specialisation.
    public func merge<P: Publisher>(with p: P) -> Publishers.Merge5<A, B, C, D, P>
    where D.Output == P.Output, D.Failure == P.Failure {
        .init(a, b, c, d, p)
    }

    /// Merges 2 more publishers in: one `Merge6`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher>(with p: P, _ q: Q) -> Publishers.Merge6<A, B, C, D, P, Q>
    where D.Output == P.Output, D.Failure == P.Failure, D.Output == Q.Output, D.Failure == Q.Failure {
        .init(a, b, c, d, p, q)
    }

    /// Merges 3 more publishers in: one `Merge7`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher>(with p: P, _ q: Q, _ r: R)
        -> Publishers.Merge7<A, B, C, D, P, Q, R>
    where
        D.Output == P.Output, D.Failure == P.Failure, D.Output == Q.Output, D.Failure == Q.Failure,
        D.Output == R.Output, D.Failure == R.Failure
    {
        .init(a, b, c, d, p, q, r)
    }

    /// Merges 4 more publishers in: one `Merge8`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher, S: Publisher>(with p: P, _ q: Q, _ r: R, _ s: S)
        -> Publishers.Merge8<A, B, C, D, P, Q, R, S>
    where
        D.Output == P.Output, D.Failure == P.Failure, D.Output == Q.Output, D.Failure == Q.Failure,
        D.Output == R.Output, D.Failure == R.Failure, D.Output == S.Output, D.Failure == S.Failure
    {
        .init(a, b, c, d, p, q, r, s)
    }
}

extension Publishers.Merge5 {
    /// Merges another publisher in: one `Merge6`, as Combine's specialisation.
    public func merge<P: Publisher>(with p: P) -> Publishers.Merge6<A, B, C, D, E, P>
    where E.Output == P.Output, E.Failure == P.Failure {
        .init(a, b, c, d, e, p)
    }

    /// Merges 2 more publishers in: one `Merge7`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher>(with p: P, _ q: Q) -> Publishers.Merge7<A, B, C, D, E, P, Q>
    where E.Output == P.Output, E.Failure == P.Failure, E.Output == Q.Output, E.Failure == Q.Failure {
        .init(a, b, c, d, e, p, q)
    }

    /// Merges 3 more publishers in: one `Merge8`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher, R: Publisher>(with p: P, _ q: Q, _ r: R)
        -> Publishers.Merge8<A, B, C, D, E, P, Q, R>
    where
        E.Output == P.Output, E.Failure == P.Failure, E.Output == Q.Output, E.Failure == Q.Failure,
        E.Output == R.Output, E.Failure == R.Failure
    {
        .init(a, b, c, d, e, p, q, r)
    }
}

extension Publishers.Merge6 {
    /// Merges another publisher in: one `Merge7`, as Combine's specialisation.
    public func merge<P: Publisher>(with p: P) -> Publishers.Merge7<A, B, C, D, E, F, P>
    where F.Output == P.Output, F.Failure == P.Failure {
        .init(a, b, c, d, e, f, p)
    }

    /// Merges 2 more publishers in: one `Merge8`, as Combine's specialisation.
    public func merge<P: Publisher, Q: Publisher>(with p: P, _ q: Q) -> Publishers.Merge8<A, B, C, D, E, F, P, Q>
    where F.Output == P.Output, F.Failure == P.Failure, F.Output == Q.Output, F.Failure == Q.Failure {
        .init(a, b, c, d, e, f, p, q)
    }
}

extension Publishers.Merge7 {
    /// Merges another publisher in: one `Merge8`, as Combine's specialisation.
    public func merge<P: Publisher>(with p: P) -> Publishers.Merge8<A, B, C, D, E, F, G, P>
    where G.Output == P.Output, G.Failure == P.Failure {
        .init(a, b, c, d, e, f, g, p)
    }
}
