import Testing
import ViewModelKit

/// Tests of `Publishers.PrefixWhile` and the operator that returns it.
@Suite struct PrefixWhileTests {
    @Test func prefixWhileFinishesAtTheFirstRejectedValue() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        upstream.prefix { $0 < 3 }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.log.entries == ["request max(3)", "cancel"])
    }

    @Test func tryPrefixWhileThrowFails() {
        let recorder = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryPrefix { value in
            if value == 2 { throw TestError("two") }
            return true
        }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "failure(two)"])
        let finished = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryPrefix { $0 < 2 }.subscribe(finished)
        #expect(rendered(finished.events) == ["subscription", "value(1)", "finished"])
    }
}
