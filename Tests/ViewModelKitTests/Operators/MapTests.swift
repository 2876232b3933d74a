import Testing
import ViewModelKit

/// Tests of `Publishers.Map` and the operator that returns it.
@Suite struct MapTests {
    @Test func mapTransformsAndPassesCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<String, TestError>()
        subject.map { "#\($0)" }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value("#1"), .value("#2"), .failure(TestError())])
    }

    @Test func mapPassesDemandAndCancelStraightThrough() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.map { $0 * 10 }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        recorder.cancel()
        #expect(upstream.log.entries == ["request max(2)", "cancel"])
        #expect(recorder.values == [10])
    }

    @Test func mapNeverExceedsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        subject.map { $0 + 1 }.subscribe(recorder)
        for i in 0..<5 { subject.send(i) }
        #expect(recorder.values == [1, 2])
        recorder.detachIfRunning()
    }
}
