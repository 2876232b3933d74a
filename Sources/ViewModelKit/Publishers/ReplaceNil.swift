extension Publisher {
    /// Replaces `nil` values with `output`, as Combine's `replaceNil(with:)`, which is a `map`
    /// (values, demand and threads are upstream's).
    public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
        Publishers.Map(upstream: self) { $0 ?? output }
    }
}
