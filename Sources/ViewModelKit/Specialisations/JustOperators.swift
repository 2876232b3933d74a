// Combine's specialisations of operators on `Just`: the single value is at hand, so the operator
// is applied when it is called (closures run once, on the calling thread) and the result is a
// simpler publisher: another `Just`, an `Optional.Publisher` (the value may be filtered out), a
// `Result.Publisher` (a closure may throw, or a failure type is introduced), a
// `Publishers.Sequence` or `Empty`. Same names, signatures and result types as Combine.

extension Just {
    /// Whether the value satisfies `predicate`.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// `allSatisfy` with a throwing predicate; a thrown error becomes the failure.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// The value in a one-element array.
    public func collect() -> Just<[Output]> { Just<[Output]>([output]) }

    /// The transformed value, if not `nil`.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher { .init(transform(output)) }

    /// The value (the only one is both the smallest and the largest).
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The value (the only one is both the smallest and the largest).
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> { self }

    /// `elements` then the value.
    public func prepend(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> { prepend(elements) }

    /// `elements` then the value.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure>
    where Output == S.Element {
        .init(sequence: Array(elements) + [output])
    }

    /// The value then `elements`.
    public func append(_ elements: Output...) -> Publishers.Sequence<[Output], Failure> { append(elements) }

    /// The value then `elements`.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Failure> where Output == S.Element {
        .init(sequence: [output] + Array(elements))
    }

    /// Whether the value satisfies `predicate`.
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> { Just<Bool>(predicate(output)) }

    /// `contains(where:)` with a throwing predicate; a thrown error becomes the failure.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        .init(Result { try predicate(output) })
    }

    /// One.
    public func count() -> Just<Int> { Just<Int>(1) }

    /// The value unless at least one is dropped.
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "Just.dropFirst: negative count \(count)")
        return .init(count > 0 ? nil : output)
    }

    /// The value unless `predicate` drops it.
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? nil : output)
    }

    /// The value.
    public func first() -> Just<Output> { self }

    /// The value if it satisfies `predicate`.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? output : nil)
    }

    /// The value.
    public func last() -> Just<Output> { self }

    /// The value if it satisfies `predicate`.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? output : nil)
    }

    /// The value if `isIncluded` accepts it.
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(isIncluded(output) ? output : nil)
    }

    /// Only the completion.
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// The transformed value.
    public func map<T>(_ transform: (Output) -> T) -> Just<T> { Just<T>(transform(output)) }

    /// The transformed value; a thrown error becomes the failure.
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, Error>.Publisher {
        .init(Result { try transform(output) })
    }

    /// The value, with a failure type that is never used.
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher { .init(output) }

    /// The value if `index` is 0.
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "Just.output(at:): negative index \(index)")
        return .init(index == 0 ? output : nil)
    }

    /// The value if `range` starts at position 0, as Combine was recorded to answer: an empty
    /// range starting at 0 gives the value too, and one with a negative lower bound gives
    /// nothing (no trap).
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        .init(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }

    /// The value if `maxLength` is positive.
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "Just.prefix: negative length \(maxLength)")
        return .init(maxLength > 0 ? output : nil)
    }

    /// The value if it satisfies `predicate`.
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(predicate(output) ? output : nil)
    }

    /// `nextPartialResult(initialResult, value)`.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        .init(nextPartialResult(initialResult, output))
    }

    /// `reduce` with a throwing closure; a thrown error becomes the failure.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        .init(Result { try nextPartialResult(initialResult, output) })
    }

    /// The value (nothing precedes it to duplicate).
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> { self }

    /// The value, or the error `predicate` throws: as Combine was recorded to do, the predicate
    /// is called once, with the value on both sides, and only an error it throws matters.
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        do {
            _ = try predicate(output, output)
            return .init(output)
        } catch {
            return .init(.failure(error))
        }
    }

    /// The value (`Just` cannot fail).
    public func replaceError(with output: Output) -> Just<Output> { self }

    /// The value (`Just` is never empty).
    public func replaceEmpty(with output: Output) -> Just<Output> { self }

    /// The value (`Just` cannot fail).
    public func retry(_ retries: Int) -> Just<Output> { self }

    /// `nextPartialResult(initialResult, value)`.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        .init(nextPartialResult(initialResult, output))
    }

    /// `scan` with a throwing closure; a thrown error becomes the failure.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        .init(Result { try nextPartialResult(initialResult, output) })
    }

    /// The value, with a failure type that is never used.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher { .init(output) }
}

extension Just where Output: Comparable {
    /// The value.
    public func min() -> Just<Output> { self }

    /// The value.
    public func max() -> Just<Output> { self }
}

extension Just where Output: Equatable {
    /// Whether the value is `output`.
    public func contains(_ output: Output) -> Just<Bool> { Just<Bool>(self.output == output) }

    /// The value (nothing precedes it to duplicate).
    public func removeDuplicates() -> Just<Output> { self }
}
