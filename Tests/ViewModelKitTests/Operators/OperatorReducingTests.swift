import Testing
import ViewModelKit

/// The reducing operators (`reduce`, `count`, `min`/`max`, `contains`, `allSatisfy`,
/// `first(where:)`, `last(where:)` and their `try` forms), as Combine's: `.unlimited` asked of
/// upstream at once, one result after upstream ends (or at the deciding value), held until demand.
@Suite struct ReducingOperatorTests {
    @Test func reduceFoldsAndWaitsForDemand() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>(initialDemand: nil)
        subject.logRequests(to: log).reduce([0]) { $0 + [$1] }.subscribe(recorder)
        #expect(log.entries == ["request unlimited"])
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value([0, 1, 2]), .finished])
    }

    @Test func reduceOfEmptyPublishesTheInitialResult() {
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().reduce(7, +).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func reduceFailurePassesAtOnceWithoutDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        subject.reduce(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("up")))
        #expect(recorder.events == [.subscription, .failure(TestError("up"))])
    }

    @Test func tryReduceThrowCancelsUpstreamAndFails() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, any Error>(initialDemand: nil)
        subject.logRequests(to: log).tryReduce(0) { sum, value in
            if value == 3 { throw TestError("three") }
            return sum + value
        }.subscribe(recorder)
        subject.send(1)
        subject.send(3)
        subject.send(4)
        #expect(log.entries == ["request unlimited", "cancel"])
        #expect(rendered(recorder.events) == ["subscription", "failure(three)"])
    }

    @Test func tryReduceSumsWhenNothingThrows() {
        let recorder = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryReduce(10) { $0 + $1 }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(16)", "finished"])
    }

    @Test func countCountsAndEmptyCountsZero() {
        let recorder = Recorder<Int, Never>()
        ["a", "b", "c"].publisher.eraseToAnyPublisher().count().subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(3), .finished])
        let empty = Recorder<Int, Never>()
        Empty<String, Never>().count().subscribe(empty)
        #expect(empty.events == [.subscription, .value(0), .finished])
        #expect(Publishers.Count(upstream: Just(1)) == Publishers.Count(upstream: Just(1)))
    }

    struct Tagged: Equatable {
        let key: Int
        let tag: String
    }

    @Test func minAndMaxKeepTheFirstOfEqualValues() {
        let values = [
            Tagged(key: 2, tag: "a"), Tagged(key: 1, tag: "b"), Tagged(key: 3, tag: "c"),
            Tagged(key: 1, tag: "d"), Tagged(key: 3, tag: "e"),
        ]
        let min = Recorder<Tagged, Never>()
        values.publisher.eraseToAnyPublisher().min { $0.key < $1.key }.subscribe(min)
        #expect(min.events == [.subscription, .value(Tagged(key: 1, tag: "b")), .finished])
        let max = Recorder<Tagged, Never>()
        values.publisher.eraseToAnyPublisher().max { $0.key < $1.key }.subscribe(max)
        #expect(max.events == [.subscription, .value(Tagged(key: 3, tag: "c")), .finished])
        let plainMin = Recorder<Int, Never>()
        [5, -2, 9].publisher.eraseToAnyPublisher().min().subscribe(plainMin)
        #expect(plainMin.values == [-2])
        let plainMax = Recorder<Int, Never>()
        [5, -2, 9].publisher.eraseToAnyPublisher().max().subscribe(plainMax)
        #expect(plainMax.values == [9])
    }

    @Test func minOfEmptyOnlyFinishes() {
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        Empty<Int, Never>().min().subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func tryMaxThrowFails() {
        let recorder = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryMax { a, b in
            if b == 3 { throw TestError("cmp") }
            return a < b
        }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "failure(cmp)"])
        let ok = Recorder<Int, any Error>()
        [4, 8, 2].publisher.eraseToAnyPublisher().tryMin { $0 < $1 }.subscribe(ok)
        #expect(rendered(ok.events) == ["subscription", "value(2)", "finished"])
    }

    @Test func containsAnswersTrueAtTheMatchAndCancelsUpstream() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Bool, Never>()
        subject.logRequests(to: log).contains(2).subscribe(recorder)
        subject.send(1)
        #expect(recorder.events == [.subscription])
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(true), .finished])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func containsAnswersFalseWhenUpstreamFinishes() {
        let recorder = Recorder<Bool, Never>()
        [1, 3].publisher.eraseToAnyPublisher().contains(2).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(false), .finished])
        let whereRecorder = Recorder<Bool, Never>()
        [1, 3].publisher.eraseToAnyPublisher().contains { $0 > 2 }.subscribe(whereRecorder)
        #expect(whereRecorder.events == [.subscription, .value(true), .finished])
    }

    @Test func tryContainsWhereThrowFails() {
        let recorder = Recorder<Bool, any Error>()
        [1, 2].publisher.eraseToAnyPublisher().tryContains { _ in throw TestError("p") }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "failure(p)"])
    }

    @Test func allSatisfyAnswersFalseAtTheFirstFailure() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Bool, Never>(initialDemand: nil)
        var tested: [Int] = []
        subject.logRequests(to: log).allSatisfy {
            tested.append($0)
            return $0 < 3
        }.subscribe(recorder)
        subject.send(1)
        subject.send(5)
        subject.send(2)
        #expect(tested == [1, 5])
        #expect(log.entries == ["request unlimited", "cancel"])
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(false), .finished])
    }

    @Test func allSatisfyOfEmptyIsTrue() {
        let recorder = Recorder<Bool, Never>()
        Empty<Int, Never>().allSatisfy { _ in false }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(true), .finished])
        let tried = Recorder<Bool, any Error>()
        [1, 2].publisher.eraseToAnyPublisher().tryAllSatisfy { $0 > 0 }.subscribe(tried)
        #expect(rendered(tried.events) == ["subscription", "value(true)", "finished"])
    }

    @Test func firstWhereStopsAtTheMatch() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.logRequests(to: log).first { $0.isMultiple(of: 2) }.subscribe(recorder)
        subject.send(1)
        subject.send(4)
        subject.send(6)
        #expect(recorder.events == [.subscription, .value(4), .finished])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func lastWhereKeepsTheLatestMatch() {
        let recorder = Recorder<Int, Never>()
        [2, 3, 4, 5].publisher.eraseToAnyPublisher().last { $0.isMultiple(of: 2) }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(4), .finished])
        let none = Recorder<Int, Never>()
        [1, 3].publisher.eraseToAnyPublisher().last { $0.isMultiple(of: 2) }.subscribe(none)
        #expect(none.events == [.subscription, .finished])
    }

    @Test func tryFirstAndTryLastWherePassUpstreamFailureAsAnyError() {
        let recorder = Recorder<Int, any Error>()
        Fail<Int, TestError>(error: TestError("up")).tryFirst { _ in true }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "failure(up)"])
        let last = Recorder<Int, any Error>()
        [1, 2].publisher.eraseToAnyPublisher().tryLast { value in
            if value == 2 { throw TestError("two") }
            return true
        }.subscribe(last)
        #expect(rendered(last.events) == ["subscription", "failure(two)"])
    }

    /// As recorded for Combine (OpenCombine's `testUpstreamFinishesImmediatelyWithoutDemand`):
    /// an operator with nothing to publish still waits for demand before `.finished`.
    @Test func anEmptyResultFinishesOnlyOnceTheSubscriberAsks() {
        func check<P: Publisher>(
            _ name: Comment, _ make: (PassthroughSubject<Int, Never>) -> P
        ) where P.Output: Equatable, P.Failure: Equatable {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = Recorder<P.Output, P.Failure>(initialDemand: nil)
            make(subject).subscribe(recorder)
            subject.send(completion: .finished)
            #expect(recorder.events == [.subscription], name)
            recorder.request(.max(1))
            #expect(recorder.events == [.subscription, .finished], name)
        }
        check("first") { $0.first() }
        check("last") { $0.last() }
        check("min") { $0.min() }
        check("max") { $0.max() }
        check("first(where:)") { $0.first { $0 > 0 } }
        check("last(where:)") { $0.last { $0 > 0 } }
        check("tryFirst(where:)") { $0.tryFirst { $0 > 0 }.mapError { _ in TestError("thrown") } }
        check("tryMin(by:)") { $0.tryMin(by: <).mapError { _ in TestError("thrown") } }
    }
}
