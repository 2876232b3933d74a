// Combine's specialisations of an operator applied to the same kind of operator: the two fuse
// into one publisher over the first one's upstream, whose closure runs both steps. Same names,
// signatures and result types as Combine, so code that spells those types compiles; values,
// demand and failures are those of the two operators in a row (a rejected value asks upstream
// for one more, a thrown error fails the stream), with one subscriber fewer in the chain.

extension Publishers.Map {
    /// `map` after `map`: one `Map` running both transforms, as Combine's specialisation.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { transform(first($0)) }
    }

    /// `tryMap` after `map`: one `TryMap`, as Combine's specialisation.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publishers.TryMap {
    /// `map` after `tryMap`: one `TryMap`, as Combine's specialisation.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { transform(try first($0)) }
    }

    /// `tryMap` after `tryMap`: one `TryMap`, as Combine's specialisation.
    public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { try transform(try first($0)) }
    }
}

extension Publishers.Filter {
    /// `filter` after `filter`: one `Filter` requiring both, as Combine's specialisation.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return .init(upstream: upstream) { first($0) && isIncluded($0) }
    }

    /// `tryFilter` after `filter`: one `TryFilter`, as Combine's specialisation.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return .init(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.TryFilter {
    /// `filter` after `tryFilter`: one `TryFilter`, as Combine's specialisation.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return .init(upstream: upstream) { try first($0) && isIncluded($0) }
    }

    /// `tryFilter` after `tryFilter`: one `TryFilter`, as Combine's specialisation.
    public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return .init(upstream: upstream) { try first($0) && isIncluded($0) }
    }
}

extension Publishers.CompactMap {
    /// `compactMap` after `compactMap`: one `CompactMap`, as Combine's specialisation.
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// `map` after `compactMap`: one `CompactMap`, as Combine's specialisation.
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { first($0).map(transform) }
    }
}

extension Publishers.TryCompactMap {
    /// `compactMap` after `tryCompactMap`: one `TryCompactMap`, as Combine's specialisation.
    public func compactMap<T>(_ transform: @escaping (Output) throws -> T?) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return .init(upstream: upstream) { try first($0).flatMap(transform) }
    }
}

extension Publishers.Drop {
    /// `dropFirst` after `dropFirst`: one `Drop` of both counts, as Combine's specialisation.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Upstream> {
        let (sum, overflow) = self.count.addingReportingOverflow(Swift.max(0, count))
        return .init(upstream: upstream, count: overflow ? .max : sum)
    }
}
