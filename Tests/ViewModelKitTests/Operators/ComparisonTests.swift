import Testing
import ViewModelKit

/// Tests of `Publishers.Comparison` and the operator that returns it.
@Suite struct ComparisonTests {
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
}
