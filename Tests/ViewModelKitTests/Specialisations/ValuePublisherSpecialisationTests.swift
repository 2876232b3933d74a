import Testing
import ViewModelKit

/// Combine's specialisations of operators on `Just`, `Result.Publisher` and `Optional.Publisher`: the result types
/// Combine gives and the outcome they carry.
@Suite struct ValuePublisherSpecialisationTests {
    @Test func justSpecialisationsKeepTheValueAtHand() {
        let just = Just(3)
        let mapped: Just<String> = just.map { "\($0)" }
        #expect(mapped.output == "3")
        let filtered: Optional<Int>.Publisher = just.filter { $0 > 5 }
        #expect(filtered.output == nil)
        let compact: Optional<Int>.Publisher = just.compactMap { $0 * 2 }
        #expect(compact.output == 6)
        let tried: Result<Int, Error>.Publisher = just.tryMap { _ in throw TestError("t") }
        #expect(throws: TestError.self) { try tried.result.get() }
        let failing: Result<Int, TestError>.Publisher = just.setFailureType(to: TestError.self)
        #expect(failing.result == .success(3))
        let reduced: Result<Int, Never>.Publisher = just.reduce(10, +)
        #expect(reduced.result == .success(13))
        let scanned: Result<Int, Never>.Publisher = just.scan(1, *)
        #expect(scanned.result == .success(3))
        #expect(just.count().output == 1)
        #expect(just.collect().output == [3])
        #expect(just.contains(3).output == true)
        #expect(just.contains { $0 > 3 }.output == false)
        #expect(just.allSatisfy { $0 == 3 }.output == true)
        #expect(just.dropFirst().output == nil)
        #expect(just.dropFirst(0).output == 3)
        #expect(just.prefix(1).output == 3)
        #expect(just.prefix(0).output == nil)
        #expect(just.output(at: 0).output == 3)
        #expect(just.output(in: 1...).output == nil)
        #expect(just.first(where: { $0 == 3 }).output == 3)
        #expect(just.last(where: { $0 == 4 }).output == nil)
        #expect(just.append(4, 5).sequence == [3, 4, 5])
        #expect(just.prepend([1, 2]).sequence == [1, 2, 3])
        let justs: [Just<Int>] = [
            just.min(), just.max(), just.first(), just.last(), just.removeDuplicates(), just.retry(1),
            just.replaceEmpty(with: 0), just.replaceError(with: 0),
        ]
        #expect(justs.allSatisfy { $0 == just })
    }

    @Test func justSpecialisationsPublishLikeTheGenericOperators() {
        let recorder = Recorder<Int, Never>()
        Just(1).filter { $0 > 0 }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        let empty = Recorder<Int, Never>()
        Just(1).ignoreOutput().subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
    }

    @Test func resultSpecialisationsTransformSuccessAndKeepFailure() {
        let success = Result<Int, TestError>.success(4).publisher
        let failure = Result<Int, TestError>.failure(TestError("f")).publisher
        let mapped: Result<String, TestError>.Publisher = success.map { "\($0)" }
        #expect(mapped.result == .success("4"))
        #expect(failure.map { $0 + 1 }.result == .failure(TestError("f")))
        let mappedError: Result<Int, TestError>.Publisher = failure.mapError { TestError("mapped \($0.name)") }
        #expect(mappedError.result == .failure(TestError("mapped f")))
        let replaced: Result<Int, Never>.Publisher = failure.replaceError(with: 0)
        #expect(replaced.result == .success(0))
        #expect(success.count().result == .success(1))
        #expect(success.collect().result == .success([4]))
        #expect(success.reduce(1, +).result == .success(5))
        #expect(success.contains(4).result == .success(true))
        #expect(failure.contains(4).result == .failure(TestError("f")))
        #expect(success.allSatisfy { $0 > 9 }.result == .success(false))
        let tried: Result<Int, Error>.Publisher = success.tryMap { _ in throw TestError("t") }
        #expect(throws: TestError.self) { try tried.result.get() }
        let passedFailure: Result<Int, Error>.Publisher = failure.tryScan(0) { $0 + $1 }
        #expect(throws: TestError.self) { try passedFailure.result.get() }
        let same: [Result<Int, TestError>.Publisher] = [
            success.min(), success.max(), success.first(), success.last(), success.retry(2), success.removeDuplicates(),
        ]
        #expect(same.allSatisfy { $0 == success })
        let retyped: Result<Int, TestError>.Publisher = Result<Int, Never>.success(1).publisher.setFailureType(
            to: TestError.self)
        #expect(retyped.result == .success(1))
        let recorder = Recorder<Int, TestError>()
        failure.ignoreOutput().subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func optionalSpecialisationsKeepNilEmpty() {
        let some = Optional(5).publisher
        let none = Optional<Int>.none.publisher
        let mapped: Optional<String>.Publisher = some.map { "\($0)" }
        #expect(mapped.output == "5")
        #expect(none.map { $0 + 1 }.output == nil)
        #expect(some.filter { $0 > 9 }.output == nil)
        #expect(some.compactMap { $0 * 2 }.output == 10)
        #expect(some.count().output == 1)
        #expect(none.count().output == nil)
        #expect(some.collect().output == [5])
        #expect(none.collect().output == [])
        #expect(some.allSatisfy { $0 == 5 }.output == true)
        #expect(none.allSatisfy { _ in false }.output == nil)
        #expect(some.contains(5).output == true)
        #expect(some.reduce(1, +).output == 6)
        #expect(none.scan(1, +).output == nil)
        #expect(some.dropFirst().output == nil)
        #expect(some.prefix(1).output == 5)
        #expect(some.output(in: 0..<1).output == 5)
        let replaced: Just<Int> = none.replaceEmpty(with: 7)
        #expect(replaced.output == 7)
        let same: [Optional<Int>.Publisher] = [
            some.min(), some.max(), some.first(), some.last(), some.retry(1), some.removeDuplicates(),
            some.replaceError(with: 0),
        ]
        #expect(same.allSatisfy { $0 == some })
        let recorder = Recorder<Int, Never>()
        none.map { $0 * 2 }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }
}
