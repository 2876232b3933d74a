import Testing
import ViewModelKit

/// The specialisations of `Just`, `Optional.Publisher` and `Result.Publisher` where Combine was
/// recorded to answer against the obvious reading (OpenCombine's Combine-validated `JustTests`,
/// `OptionalPublisherTests` and `ResultPublisherTests`), and where we answer instead of trapping.
@Suite struct ValuePublisherQuirkTests {
    struct Thrown: Error, Equatable {}

    @Test func justOutputInARangeGivesTheValueExactlyWhenTheRangeStartsAtZero() {
        let just = Just(12)
        #expect(just.output(in: 0..<10).output == 12)
        #expect(just.output(in: 0..<0).output == 12)  // empty, but starting at 0: as recorded
        #expect(just.output(in: 0...0).output == 12)
        #expect(just.output(in: 0..<Int.max).output == 12)
        #expect(just.output(in: 1..<10).output == nil)
        #expect(just.output(in: -10..<10).output == nil)  // a negative lower bound: nothing, no trap
        #expect(just.output(in: (-10)...).output == nil)
        #expect(just.output(in: -10...10).output == nil)
        #expect(just.output(in: -10 ..< -5).output == nil)
    }

    @Test func optionalOutputInARangeGivesTheValueWhenTheRangeHoldsPositionZeroFromZero() {
        let some = Optional(12).publisher
        #expect(some.output(in: 0..<10).output == 12)
        #expect(some.output(in: 0..<(Int.max - 2)).output == 12)
        #expect(some.output(in: 0..<0).output == nil)  // unlike Just, as recorded
        #expect(some.output(in: 0...0).output == 12)
        #expect(some.output(in: 1..<10).output == nil)
        #expect(some.output(in: ...0).output == 12)
        #expect(some.output(in: ..<0).output == nil)
        #expect(some.output(in: ..<1).output == 12)
        #expect(Optional<Int>.none.publisher.output(in: 0..<10).output == nil)
        // Combine traps on a negative lower bound; we answer nothing.
        #expect(some.output(in: -1...4).output == nil)
        #expect(some.output(in: -1..<3).output == nil)
    }

    @Test func justTryRemoveDuplicatesCallsThePredicateOnceWithTheValueTwice() throws {
        var calls: [[Int]] = []
        let kept = Just(44).tryRemoveDuplicates { lhs, rhs in
            calls.append([lhs, rhs])
            return lhs > rhs
        }
        #expect(try kept.result.get() == 44)
        #expect(calls == [[44, 44]])
        let failed = Just(44).tryRemoveDuplicates { _, _ in throw Thrown() }
        #expect(throws: Thrown.self) { try failed.result.get() }
    }

    @Test func resultTryComparisonsCallTheClosureOnceOnASuccessAndNeverOnAFailure() throws {
        var calls: [[Int]] = []
        let record: (Int, Int) throws -> Bool = { lhs, rhs in
            calls.append([lhs, rhs])
            return lhs < rhs
        }
        let throwing: (Int, Int) throws -> Bool = { lhs, rhs in
            calls.append([lhs, rhs])
            throw Thrown()
        }
        let success = Result<Int, Thrown>.success(7).publisher
        let failure = Result<Int, Thrown>.failure(Thrown()).publisher

        #expect(try success.tryRemoveDuplicates(by: record).result.get() == 7)
        #expect(try success.tryMin(by: record).result.get() == 7)
        #expect(try success.tryMax(by: record).result.get() == 7)
        #expect(calls == [[7, 7], [7, 7], [7, 7]])

        #expect(throws: Thrown.self) { try success.tryRemoveDuplicates(by: throwing).result.get() }
        #expect(throws: Thrown.self) { try success.tryMin(by: throwing).result.get() }
        #expect(throws: Thrown.self) { try success.tryMax(by: throwing).result.get() }
        #expect(calls.count == 6)

        #expect(throws: Thrown.self) { try failure.tryRemoveDuplicates(by: throwing).result.get() }
        #expect(throws: Thrown.self) { try failure.tryMin(by: throwing).result.get() }
        #expect(throws: Thrown.self) { try failure.tryMax(by: throwing).result.get() }
        #expect(calls.count == 6)
    }
}
