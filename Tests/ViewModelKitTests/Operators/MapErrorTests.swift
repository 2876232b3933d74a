import Testing
import ViewModelKit

/// Tests of `Publishers.MapError` and the operator that returns it.
@Suite struct MapErrorTests {
    @Test func setFailureTypeAndMapError() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, TestError>()
        subject.setFailureType(to: TestError.self).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])

        let failing = PassthroughSubject<Int, TestError>()
        let mapped = Recorder<Int, TestError>()
        failing.mapError { TestError("mapped-\($0.name)") }.subscribe(mapped)
        failing.send(2)
        failing.send(completion: .failure(TestError("x")))
        #expect(mapped.events == [.subscription, .value(2), .failure(TestError("mapped-x"))])
    }

    @Test func mapErrorAndSetFailureTypePassDemandAndCancel() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        upstream.mapError { $0 }.subscribe(recorder)
        recorder.cancel()
        #expect(upstream.log.entries == ["request max(1)", "cancel"])

        let never = ManualPublisher<Int, Never>()
        let other = Recorder<Int, TestError>(initialDemand: .max(2))
        never.setFailureType(to: TestError.self).subscribe(other)
        other.cancel()
        #expect(never.log.entries == ["request max(2)", "cancel"])
    }
}
