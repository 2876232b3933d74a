import Testing
import ViewModelKit

/// Tests of `Publishers.Count` and the operator that returns it.
@Suite struct CountTests {
    @Test func countCountsAndEmptyCountsZero() {
        let recorder = Recorder<Int, Never>()
        ["a", "b", "c"].publisher.eraseToAnyPublisher().count().subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(3), .finished])
        let empty = Recorder<Int, Never>()
        Empty<String, Never>().count().subscribe(empty)
        #expect(empty.events == [.subscription, .value(0), .finished])
        #expect(Publishers.Count(upstream: Just(1)) == Publishers.Count(upstream: Just(1)))
    }
}
