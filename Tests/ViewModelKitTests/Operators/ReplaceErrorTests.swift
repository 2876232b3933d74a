import Testing
import ViewModelKit

@Suite struct ErrorHandlingTests {
    @Test func replaceErrorWithDemandPublishesReplacement() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>()
        subject.replaceError(with: -1).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .value(-1), .finished])
    }

    @Test func replaceErrorWaitsForDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        subject.replaceError(with: -1).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(-1), .finished])
    }

    @Test func replaceErrorPassesFinishedAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>()
        subject.replaceError(with: 0).subscribe(recorder)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])

        let upstream = ManualPublisher<Int, TestError>()
        let cancelled = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.replaceError(with: 0).subscribe(cancelled)
        cancelled.cancel()
        upstream.send(completion: .failure(TestError()))
        #expect(cancelled.events == [.subscription])
        #expect(upstream.log.entries == ["request max(2)", "cancel"])
    }
}
