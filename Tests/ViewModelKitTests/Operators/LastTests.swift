import Testing
import ViewModelKit

/// Tests of `Publishers.Last` and the operator that returns it.
@Suite struct LastTests {
    @Test func lastPublishesOnFinish() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        subject.last().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.events == [.subscription])
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(3), .finished])
    }

    @Test func lastWaitsForDemandFailsAndCancels() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        upstream.last().subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])

        let failing = PassthroughSubject<Int, TestError>()
        let failed = Recorder<Int, TestError>()
        failing.last().subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(TestError()))
        #expect(failed.events == [.subscription, .failure(TestError())])

        let cancelled = ManualPublisher<Int, Never>()
        let c = Recorder<Int, Never>()
        cancelled.last().subscribe(c)
        c.cancel()
        cancelled.send(1)
        cancelled.send(completion: .finished)
        #expect(c.events == [.subscription])
    }
}
