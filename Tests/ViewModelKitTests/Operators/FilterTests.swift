import Testing
import ViewModelKit

/// Tests of `Publishers.Filter` and the operator that returns it.
@Suite struct FilterTests {
    @Test func filterKeepsMatchingValuesAndAsksForMore() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        upstream.filter { $0.isMultiple(of: 2) }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(2), .failure(TestError())])
        #expect(upstream.log.entries == ["request max(1)"])
    }

    @Test func filterNeverExceedsDemandAndCancels() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        subject.filter { $0 > 0 }.subscribe(recorder)
        for i in [0, 1, 0, 2, 3, 4] { subject.send(i) }
        #expect(recorder.values == [1, 2])
        recorder.cancel()
        recorder.request(.max(1))
        subject.send(5)
        #expect(recorder.values == [1, 2])
    }
}
