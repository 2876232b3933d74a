// Combine's specialisations of operators on `Publishers.Sequence`: where the whole input is
// already at hand, an operator is applied to the sequence itself when the operator is called
// (not at subscription), and the result is a simpler publisher: another `Publishers.Sequence`,
// a `Result.Publisher`, an `Optional.Publisher` or `Empty`. Same names, signatures and result
// types as Combine, so code that spells those types compiles. Closures run once, on the
// calling thread, when the operator is called.

extension Publishers.Sequence {
    /// Whether every element satisfies `predicate`, as Combine's specialisation.
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(sequence.allSatisfy(predicate))
    }

    /// `allSatisfy` with a throwing predicate; a thrown error becomes the failure.
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        .init(Result { try sequence.allSatisfy(predicate) })
    }

    /// All the elements as one array, as Combine's specialisation.
    public func collect() -> Result<[Output], Failure>.Publisher {
        .init(Array(sequence))
    }

    /// The non-nil results of `transform`, as Combine's specialisation.
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        .init(sequence: sequence.compactMap(transform))
    }

    /// Whether an element satisfies `predicate`, as Combine's specialisation.
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(sequence.contains(where: predicate))
    }

    /// `contains(where:)` with a throwing predicate; a thrown error becomes the failure.
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, Error>.Publisher {
        .init(Result { try sequence.contains(where: predicate) })
    }

    /// The elements after those satisfying `predicate`, as Combine's specialisation.
    public func drop(while predicate: (Elements.Element) -> Bool)
        -> Publishers.Sequence<DropWhileSequence<Elements>, Failure>
    {
        .init(sequence: sequence.drop(while: predicate))
    }

    /// The elements after the first `count`, as Combine's specialisation.
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        .init(sequence: sequence.dropFirst(count))
    }

    /// The elements `isIncluded` accepts, as Combine's specialisation.
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        .init(sequence: sequence.filter(isIncluded))
    }

    /// No elements, only the completion, as Combine's specialisation.
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
    }

    /// The elements transformed, as Combine's specialisation.
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        .init(sequence: sequence.map(transform))
    }

    /// At most the first `maxLength` elements, as Combine's specialisation.
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        .init(sequence: sequence.prefix(maxLength))
    }

    /// The elements before the first that fails `predicate`, as Combine's specialisation.
    public func prefix(while predicate: (Elements.Element) -> Bool) -> Publishers.Sequence<[Elements.Element], Failure>
    {
        .init(sequence: Array(sequence.prefix(while: predicate)))
    }

    /// The elements folded into one result, as Combine's specialisation.
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Result<T, Failure>.Publisher
    {
        .init(sequence.reduce(initialResult, nextPartialResult))
    }

    /// `reduce` with a throwing closure; a thrown error becomes the failure.
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Result<T, Error>.Publisher {
        .init(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// `nil` elements replaced by `output`, as Combine's specialisation.
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Output], Failure> where Elements.Element == T? {
        .init(sequence: sequence.map { $0 ?? output })
    }

    /// The running accumulation, as Combine's specialisation.
    public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Sequence<[T], Failure>
    {
        var accumulated = initialResult
        return .init(
            sequence: sequence.map { element in
                accumulated = nextPartialResult(accumulated, element)
                return accumulated
            })
    }

    /// The same elements with another nominal failure type, as Combine's specialisation.
    public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
        .init(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// The elements without consecutive duplicates, as Combine's specialisation.
    public func removeDuplicates() -> Publishers.Sequence<[Output], Failure> {
        var previous: Output?
        var kept: [Output] = []
        for element in sequence where element != previous {
            kept.append(element)
            previous = element
        }
        return .init(sequence: kept)
    }

    /// Whether the sequence holds `output`, as Combine's specialisation.
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        .init(sequence.contains(output))
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The smallest element under `areInIncreasingOrder`, if any, as Combine's specialisation.
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.min(by: areInIncreasingOrder))
    }

    /// The largest element under `areInIncreasingOrder`, if any, as Combine's specialisation.
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.max(by: areInIncreasingOrder))
    }

    /// The first element satisfying `predicate`, if any, as Combine's specialisation.
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.first(where: predicate))
    }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// The smallest element, if any, as Combine's specialisation.
    public func min() -> Optional<Output>.Publisher {
        .init(sequence.min())
    }

    /// The largest element, if any, as Combine's specialisation.
    public func max() -> Optional<Output>.Publisher {
        .init(sequence.max())
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// The first element, if any, as Combine's specialisation.
    public func first() -> Optional<Output>.Publisher {
        .init(sequence.first)
    }

    /// The element at `index`, if the collection has it, as Combine's specialisation.
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        .init(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// The number of elements, as Combine's specialisation.
    public func count() -> Result<Int, Failure>.Publisher {
        .init(sequence.count)
    }

    /// The elements at the positions in `range` (which must be valid indices), as Combine's
    /// specialisation.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        .init(sequence: Array(sequence[range]))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// The element at `index`, if the collection has it, as Combine's specialisation.
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        .init(sequence.indices.contains(index) ? sequence[index] : nil)
    }

    /// The number of elements, as Combine's specialisation for collections that cannot fail.
    public func count() -> Just<Int> {
        Just(sequence.count)
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// The elements at the positions in `range` (which must be valid indices), as Combine's
    /// specialisation.
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        .init(sequence: Array(sequence[range]))
    }

    /// The number of elements, as Combine's specialisation.
    public func count() -> Result<Int, Failure>.Publisher {
        .init(sequence.count)
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// The last element, if any, as Combine's specialisation.
    public func last() -> Optional<Output>.Publisher {
        .init(sequence.last)
    }

    /// The last element satisfying `predicate`, if any, as Combine's specialisation.
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        .init(sequence.last(where: predicate))
    }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
    /// `elements` then this sequence's, as Combine's specialisation.
    public func prepend(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        prepend(elements)
    }

    /// `elements` then this sequence's, as Combine's specialisation.
    public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var joined = Elements(elements)
        joined.append(contentsOf: sequence)
        return .init(sequence: joined)
    }

    /// `publisher`'s elements then this sequence's, as Combine's specialisation.
    public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        prepend(publisher.sequence)
    }

    /// This sequence's elements then `elements`, as Combine's specialisation.
    public func append(_ elements: Output...) -> Publishers.Sequence<Elements, Failure> {
        append(elements)
    }

    /// This sequence's elements then `elements`, as Combine's specialisation.
    public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
    where Elements.Element == S.Element {
        var joined = sequence
        joined.append(contentsOf: elements)
        return .init(sequence: joined)
    }

    /// This sequence's elements then `publisher`'s, as Combine's specialisation.
    public func append(_ publisher: Publishers.Sequence<Elements, Failure>) -> Publishers.Sequence<Elements, Failure> {
        append(publisher.sequence)
    }
}
