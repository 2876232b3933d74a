// Combine's `Equatable` conformances of its publishers, for those declared in other files
// (Swift synthesises `==` only in the type's own file). Two publishers are equal when their
// upstreams and parameters are equal, as in Combine.

extension Publishers.Collect: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream && lhs.count == rhs.count
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream && lhs.range == rhs.range
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream && lhs.retries == rhs.retries
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.upstream == rhs.upstream && lhs.output == rhs.output
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sequence == rhs.sequence
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.prefix == rhs.prefix && lhs.suffix == rhs.suffix
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.publishers == rhs.publishers
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b
    }
}

extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
    }
}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b
    }
}

extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
    }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c
    }
}

extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d
    }
}

extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e
    }
}

extension Publishers.Merge6: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f
    }
}

extension Publishers.Merge7: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f
            && lhs.g == rhs.g
    }
}

extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {
    /// Equal upstreams and parameters, as Combine's conformance.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.a == rhs.a && lhs.b == rhs.b && lhs.c == rhs.c && lhs.d == rhs.d && lhs.e == rhs.e && lhs.f == rhs.f
            && lhs.g == rhs.g && lhs.h == rhs.h
    }
}
