import Testing
import ViewModelKit

/// Tests of `Publishers.IgnoreOutput` and the operator that returns it.
@Suite struct IgnoreOutputTests {
    @Test func ignoreOutputRequestsEverythingAndPassesCompletion() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Never, TestError>(initialDemand: nil)
        upstream.ignoreOutput().subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(TestError()))
        #expect(upstream.log.entries == ["request unlimited"])
        #expect(recorder.events.map(\.description) == ["subscription", "failure(boom)"])

        let other = ManualPublisher<Int, Never>()
        let cancelled = Recorder<Never, Never>(initialDemand: nil)
        other.ignoreOutput().subscribe(cancelled)
        cancelled.cancel()
        #expect(other.log.entries == ["request unlimited", "cancel"])
    }
}
