import Testing
import ViewModelKit

/// Tests of `Publishers.Scan` and the operator that returns it.
@Suite struct ScanTests {
    @Test func scanAccumulates() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.scan(10) { $0 + $1 }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(11), .value(13), .failure(TestError())])
    }

    @Test func scanRespectsDemandAndCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        subject.scan(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(2)  // no demand: dropped by the subject
        recorder.request(.max(5))
        subject.send(3)
        recorder.cancel()
        subject.send(4)
        #expect(recorder.values == [1, 4])
    }
}
