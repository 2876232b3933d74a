// Combine's specialisations of operators on `Optional.Publisher`: the value (or its absence) is
// at hand, so the operator is applied when it is called (closures run once, on the calling
// thread, and only with a value) and the result is another `Optional.Publisher`, a `Just` or
// `Empty`. As in Combine, `nil` stays `nil` (an empty answer) for every operator except
// `collect()`, which gives `[]`, and `replaceEmpty(with:)`, which gives its replacement.

extension Optional.Publisher {
    /// Whether the value satisfies `predicate`; nothing without a value.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Optional<Bool>.Publisher { .init(output.map(predicate)) }

    /// The value in an array (`[]` without one).
    public func collect() -> Optional<[Output]>.Publisher { .init(output.map { [$0] } ?? []) }

    /// The transformed value, if any and not `nil`.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher { .init(output.flatMap(transform)) }

    /// The value.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// The value.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// Whether the value satisfies `predicate`; nothing without a value.
    public func contains(where predicate: (Output) -> Bool) -> Optional<Bool>.Publisher { .init(output.map(predicate)) }

    /// One with a value; nothing without.
    public func count() -> Optional<Int>.Publisher { .init(output.map { _ in 1 }) }

    /// The value unless at least one is dropped.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "Optional.Publisher.dropFirst: negative count \(count)")
        return .init(count == 0 ? output : nil)
    }

    /// The value unless `predicate` drops it.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(output.flatMap { predicate($0) ? nil : $0 })
    }

    /// The value.
    public func first() -> Optional<Output>.Publisher { self }

    /// The value if it satisfies `predicate`.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { kept(where: predicate) }

    /// The value.
    public func last() -> Optional<Output>.Publisher { self }

    /// The value if it satisfies `predicate`.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher { kept(where: predicate) }

    /// The value if `isIncluded` accepts it.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher { kept(where: isIncluded) }

    /// Only the completion.
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// The transformed value.
    public func map<T>(_ transform: (Output) -> T) -> Optional<T>.Publisher { .init(output.map(transform)) }

    /// The value if `index` is 0.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "Optional.Publisher.output(at:): negative index \(index)")
        return .init(index == 0 ? output : nil)
    }

    /// The value if `range`, taken relative to `0..<Int.max`, starts at position 0 and is not
    /// empty (`0..<0` and `..<0` give nothing, `...0` the value), as Combine was recorded to
    /// answer. A negative lower bound gives nothing: Combine traps there, we do not.
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        let positions = range.relative(to: 0..<Int.max)
        return .init(positions.lowerBound == 0 && !positions.isEmpty ? output : nil)
    }

    /// The value if `maxLength` is positive.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "Optional.Publisher.prefix: negative length \(maxLength)")
        return .init(maxLength > 0 ? output : nil)
    }

    /// The value if it satisfies `predicate`.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher { kept(where: predicate) }

    /// `nextPartialResult(initialResult, value)`; nothing without a value.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        .init(output.map { nextPartialResult(initialResult, $0) })
    }

    /// `nextPartialResult(initialResult, value)`; nothing without a value.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Optional<T>.Publisher {
        .init(output.map { nextPartialResult(initialResult, $0) })
    }

    /// The value (nothing precedes it to duplicate).
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Optional<Output>.Publisher { self }

    /// The same publisher (it cannot fail).
    public func replaceError(with output: Output) -> Optional<Output>.Publisher { self }

    /// The value, or `output` in its absence.
    public func replaceEmpty(with output: Output) -> Just<Output> { Just(self.output ?? output) }

    /// The same publisher (it cannot fail).
    public func retry(_ times: Int) -> Optional<Output>.Publisher { self }

    /// The value if `test` accepts it.
    private func kept(where test: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(output.flatMap { test($0) ? $0 : nil })
    }
}

extension Optional.Publisher where Wrapped: Equatable {
    /// Whether the value is `output`; nothing without a value.
    public func contains(_ output: Output) -> Optional<Bool>.Publisher { .init(self.output.map { $0 == output }) }

    /// The value (nothing precedes it to duplicate).
    public func removeDuplicates() -> Optional<Output>.Publisher { self }
}

extension Optional.Publisher where Wrapped: Comparable {
    /// The value.
    public func min() -> Optional<Output>.Publisher { self }

    /// The value.
    public func max() -> Optional<Output>.Publisher { self }
}
