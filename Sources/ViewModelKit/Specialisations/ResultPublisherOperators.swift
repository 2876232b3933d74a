// Combine's specialisations of operators on `Result.Publisher`: the outcome is at hand, so the
// operator is applied to it when it is called (closures run once, on the calling thread, and
// only on a success) and the result is another `Result.Publisher` (or `Empty`). A failure stays
// the failure. Same names, signatures and result types as Combine.

extension Result.Publisher {
    /// Whether the value satisfies `predicate`.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(result.map(predicate))
    }

    /// `allSatisfy` with a throwing predicate; a thrown error becomes the failure.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        .init(erased.flatMap { value in Result<Bool, Error> { try predicate(value) } })
    }

    /// Whether the value satisfies `predicate`.
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(result.map(predicate))
    }

    /// `contains(where:)` with a throwing predicate; a thrown error becomes the failure.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        .init(erased.flatMap { value in Result<Bool, Error> { try predicate(value) } })
    }

    /// The value in a one-element array.
    public func collect() -> Result<[Output], Failure>.Publisher { .init(result.map { [$0] }) }

    /// The value.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The value.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The value, or the error `areInIncreasingOrder` throws: as Combine was recorded to do, a
    /// success calls the ordering once, with the value on both sides (a failure never calls it).
    public func tryMin(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        .init(checkedOnce(by: areInIncreasingOrder))
    }

    /// The value, or the error `areInIncreasingOrder` throws: as Combine was recorded to do, a
    /// success calls the ordering once, with the value on both sides (a failure never calls it).
    public func tryMax(by areInIncreasingOrder: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        .init(checkedOnce(by: areInIncreasingOrder))
    }

    /// The outcome after one call of `predicate(value, value)` on a success; only an error the
    /// call throws matters (the `try` comparisons of a one-value publisher, as recorded).
    private func checkedOnce(by predicate: (Output, Output) throws -> Bool) -> Result<Output, Error> {
        erased.flatMap { value in
            Result<Output, Error> {
                _ = try predicate(value, value)
                return value
            }
        }
    }

    /// One.
    public func count() -> Result<Int, Failure>.Publisher { .init(result.map { _ in 1 }) }

    /// The value.
    public func first() -> Result<Output, Failure>.Publisher { self }

    /// The value.
    public func last() -> Result<Output, Failure>.Publisher { self }

    /// `.finished` alone. Combine's result type, `Empty`, cannot fail, so a failure is not
    /// published either.
    public func ignoreOutput() -> Empty<Output, Failure> { Empty() }

    /// The transformed value.
    public func map<T>(_ transform: (Output) -> T) -> Result<T, Failure>.Publisher { .init(result.map(transform)) }

    /// The transformed value; a thrown error becomes the failure.
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, Error>.Publisher {
        .init(erased.flatMap { value in Result<T, Error> { try transform(value) } })
    }

    /// The failure transformed.
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        .init(result.mapError(transform))
    }

    /// The value (nothing precedes it to duplicate).
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher { self }

    /// The value, or the error `predicate` throws: as Combine was recorded to do, a success calls
    /// the predicate once, with the value on both sides (a failure never calls it).
    public func tryRemoveDuplicates(by predicate: (Output, Output) throws -> Bool) -> Result<Output, Error>.Publisher {
        .init(checkedOnce(by: predicate))
    }

    /// The value, or `output` in place of the failure.
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        switch result {
        case .success(let value): return .init(value)
        case .failure: return .init(output)
        }
    }

    /// The same outcome (a `Result.Publisher` is never empty).
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher { self }

    /// The same outcome: resubscribing would give the same failure.
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher { self }

    /// `nextPartialResult(initialResult, value)`.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        .init(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `reduce` with a throwing closure; a thrown error becomes the failure.
    public func tryReduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        .init(erased.flatMap { value in Result<T, Error> { try nextPartialResult(initialResult, value) } })
    }

    /// `nextPartialResult(initialResult, value)`.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        .init(result.map { nextPartialResult(initialResult, $0) })
    }

    /// `scan` with a throwing closure; a thrown error becomes the failure.
    public func tryScan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) throws -> T)
        -> Result<T, Error>.Publisher
    {
        .init(erased.flatMap { value in Result<T, Error> { try nextPartialResult(initialResult, value) } })
    }

    /// The outcome with `any Error` as failure type.
    private var erased: Result<Output, Error> { result.mapError { $0 } }
}

extension Result.Publisher where Output: Equatable {
    /// Whether the value is `output`.
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher { .init(result.map { $0 == output }) }

    /// The value (nothing precedes it to duplicate).
    public func removeDuplicates() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Output: Comparable {
    /// The value.
    public func min() -> Result<Output, Failure>.Publisher { self }

    /// The value.
    public func max() -> Result<Output, Failure>.Publisher { self }
}

extension Result.Publisher where Failure == Never {
    /// The value, with a failure type that is never used.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        switch result {
        case .success(let value): return .init(value)
        }
    }
}
