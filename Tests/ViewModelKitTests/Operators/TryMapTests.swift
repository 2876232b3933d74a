import Testing
import ViewModelKit

/// Tests of `Publishers.TryMap` and the operator that returns it.
@Suite struct TryMapTests {
    @Test func tryMapThrowCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Error>()
        upstream.tryMap { value -> Int in
            if value == 2 { throw TestError("two") }
            return value
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)  // after the failure: ignored
        upstream.send(completion: .finished)
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
        #expect(recorder.events.map(\.description) == ["subscription", "value(1)", "failure(two)"])
    }

    @Test func tryMapPassesUpstreamFailureAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Error>()
        subject.tryMap { $0 }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("up")))
        #expect(recorder.events.map(\.description) == ["subscription", "value(1)", "failure(up)"])

        let upstream = ManualPublisher<Int, Never>()
        let other = Recorder<Int, Error>(initialDemand: .max(1))
        upstream.tryMap { $0 }.subscribe(other)
        other.request(.max(3))
        other.cancel()
        #expect(upstream.log.entries == ["request max(1)", "request max(3)", "cancel"])
    }
}
