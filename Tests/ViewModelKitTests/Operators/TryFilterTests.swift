import Testing
import ViewModelKit

/// Tests of `Publishers.TryFilter` and the operator that returns it.
@Suite struct TryFilterTests {
    @Test func tryFilterSkipsAskForOneMoreAndAThrowCancels() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, any Error>(initialDemand: .max(2))
        upstream.tryFilter { value in
            if value == 9 { throw TestError("nine") }
            return value.isMultiple(of: 2)
        }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(9) == .none)
        #expect(upstream.send(4) == .none)
        #expect(upstream.log.entries == ["request max(2)", "cancel"])
        #expect(rendered(recorder.events) == ["subscription", "value(2)", "failure(nine)"])
    }

    @Test func tryFilterPassesUpstreamFailureAsAnyError() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, any Error>()
        subject.tryFilter { _ in true }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("up")))
        subject.send(2)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "failure(up)"])
    }
}
