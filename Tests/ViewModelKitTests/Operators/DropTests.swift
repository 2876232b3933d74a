import Testing
import ViewModelKit

/// Tests of `Publishers.Drop` and the operator that returns it.
@Suite struct DropTests {
    @Test func dropFirstOmitsAndAddsCountToFirstRequest() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.dropFirst(3).subscribe(recorder)
        for i in 1...5 { upstream.send(i) }
        recorder.request(.max(1))
        upstream.send(completion: .finished)
        #expect(upstream.log.entries == ["request max(5)", "request max(1)"])
        #expect(recorder.events == [.subscription, .value(4), .value(5), .finished])
    }

    @Test func dropFirstWithSubjectAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.dropFirst().subscribe(recorder)
        subject.send(1)
        subject.send(2)
        recorder.cancel()
        subject.send(3)
        #expect(recorder.events == [.subscription, .value(2)])

        let failing = PassthroughSubject<Int, TestError>()
        let failed = Recorder<Int, TestError>()
        failing.dropFirst(5).subscribe(failed)
        failing.send(1)
        failing.send(completion: .failure(TestError()))
        #expect(failed.events == [.subscription, .failure(TestError())])
    }
}
