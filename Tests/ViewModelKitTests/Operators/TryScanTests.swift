import Testing
import ViewModelKit

/// Tests of `Publishers.TryScan` and the operator that returns it.
@Suite struct TryScanTests {
    @Test func tryScanPublishesEachStepAndRestartsPerSubscription() {
        let publisher = [1, 2, 3].publisher.eraseToAnyPublisher().tryScan(0) { $0 + $1 }
        for _ in 0..<2 {
            let recorder = Recorder<Int, any Error>()
            publisher.subscribe(recorder)
            #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(3)", "value(6)", "finished"])
        }
        let failing = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryScan(0) { sum, value in
            if value == 2 { throw TestError("two") }
            return sum + value
        }.subscribe(failing)
        #expect(rendered(failing.events) == ["subscription", "value(1)", "failure(two)"])
    }
}
