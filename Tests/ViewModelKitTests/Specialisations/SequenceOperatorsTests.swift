import Testing
import ViewModelKit

/// Combine's specialisations of operators on `Publishers.Sequence`: the result types Combine
/// gives (so code spelling them compiles) and the values they publish.
@Suite struct SequenceSpecialisationTests {
    private func events<P: Publisher>(_ publisher: P) -> [String] {
        let recorder = Recorder<P.Output, P.Failure>()
        publisher.subscribe(recorder)
        return rendered(recorder.events)
    }

    @Test func transformingSpecialisationsStaySequences() {
        let numbers = [1, 2, 2, 3].publisher
        let mapped: Publishers.Sequence<[Int], Never> = numbers.map { $0 * 10 }
        #expect(mapped.sequence == [10, 20, 20, 30])
        let filtered: Publishers.Sequence<[Int], Never> = numbers.filter { $0 > 1 }
        #expect(filtered.sequence == [2, 2, 3])
        let compact: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
        #expect(compact.sequence == [1, 3])
        let scanned: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
        #expect(scanned.sequence == [1, 3, 5, 8])
        let unique: Publishers.Sequence<[Int], Never> = numbers.removeDuplicates()
        #expect(unique.sequence == [1, 2, 3])
        let replaced: Publishers.Sequence<[Int?], Never> = [1, nil].publisher.replaceNil(with: 0)
        #expect(replaced.sequence == [1, 0])
        let dropped: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = numbers.dropFirst(2)
        #expect(Array(dropped.sequence) == [2, 3])
        let droppedWhile: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = numbers.drop { $0 < 2 }
        #expect(Array(droppedWhile.sequence) == [2, 2, 3])
        let prefixed: Publishers.Sequence<PrefixSequence<[Int]>, Never> = numbers.prefix(1)
        #expect(Array(prefixed.sequence) == [1])
        let prefixedWhile: Publishers.Sequence<[Int], Never> = numbers.prefix { $0 < 3 }
        #expect(prefixedWhile.sequence == [1, 2, 2])
        let retyped: Publishers.Sequence<[Int], TestError> = numbers.setFailureType(to: TestError.self)
        #expect(retyped.sequence == [1, 2, 2, 3])
        #expect(
            events(numbers.append(4, 5)) == [
                "subscription", "value(1)", "value(2)", "value(2)", "value(3)", "value(4)", "value(5)", "finished",
            ])
        #expect(numbers.prepend([0]).sequence == [0, 1, 2, 2, 3])
        #expect(numbers.append([9].publisher).sequence == [1, 2, 2, 3, 9])
    }

    @Test func reducingSpecialisationsBecomeResultOrOptionalPublishers() {
        let numbers = [4, 1, 3].publisher
        let sum: Result<Int, Never>.Publisher = numbers.reduce(0, +)
        #expect(sum.result == .success(8))
        let all: Result<[Int], Never>.Publisher = numbers.collect()
        #expect(all.result == .success([4, 1, 3]))
        let count: Result<Int, Never>.Publisher = numbers.count()
        #expect(count.result == .success(3))
        let has: Result<Bool, Never>.Publisher = numbers.contains(3)
        #expect(has.result == .success(true))
        let hasWhere: Result<Bool, Never>.Publisher = numbers.contains { $0 > 5 }
        #expect(hasWhere.result == .success(false))
        let every: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
        #expect(every.result == .success(true))
        let smallest: Optional<Int>.Publisher = numbers.min()
        #expect(smallest.output == 1)
        let largest: Optional<Int>.Publisher = numbers.max()
        #expect(largest.output == 4)
        let first: Optional<Int>.Publisher = numbers.first()
        #expect(first.output == 4)
        let last: Optional<Int>.Publisher = numbers.last()
        #expect(last.output == 3)
        #expect(numbers.first { $0 < 4 }.output == 1)
        #expect(numbers.last { $0 > 3 }.output == 4)
        #expect(events(numbers.ignoreOutput()) == ["subscription", "finished"])
        let justCount: Just<Int> = numbers.count()
        #expect(justCount.output == 3)
        let at: Optional<Int>.Publisher = numbers.output(at: 1)
        #expect(at.output == 1)
        #expect(numbers.output(at: 7).output == nil)
        let slice: Publishers.Sequence<[Int], Never> = numbers.output(in: 1..<3)
        #expect(slice.sequence == [1, 3])
        #expect(events(numbers.output(in: 0..<2)) == ["subscription", "value(4)", "value(1)", "finished"])
        #expect(events(Publishers.Sequence<[Int], Never>(sequence: []).max()) == ["subscription", "finished"])
    }

    @Test func throwingSpecialisationsFailWithTheThrownError() {
        let numbers = [1, 2].publisher
        let reduced: Result<Int, Error>.Publisher = numbers.tryReduce(0) { _, _ in throw TestError("r") }
        #expect(events(reduced) == ["subscription", "failure(r)"])
        let contains: Result<Bool, Error>.Publisher = numbers.tryContains { _ in throw TestError("c") }
        #expect(events(contains) == ["subscription", "failure(c)"])
        let all: Result<Bool, Error>.Publisher = numbers.tryAllSatisfy { $0 < 2 }
        #expect(events(all) == ["subscription", "value(false)", "finished"])
    }
}
