import Testing
import ViewModelKit

/// Tests of `Publishers.Contains` and the operator that returns it.
@Suite struct ContainsTests {
    @Test func containsAnswersTrueAtTheMatchAndCancelsUpstream() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Bool, Never>()
        subject.logRequests(to: log).contains(2).subscribe(recorder)
        subject.send(1)
        #expect(recorder.events == [.subscription])
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(true), .finished])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func containsAnswersFalseWhenUpstreamFinishes() {
        let recorder = Recorder<Bool, Never>()
        [1, 3].publisher.eraseToAnyPublisher().contains(2).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(false), .finished])
        let whereRecorder = Recorder<Bool, Never>()
        [1, 3].publisher.eraseToAnyPublisher().contains { $0 > 2 }.subscribe(whereRecorder)
        #expect(whereRecorder.events == [.subscription, .value(true), .finished])
    }

    @Test func tryContainsWhereThrowFails() {
        let recorder = Recorder<Bool, any Error>()
        [1, 2].publisher.eraseToAnyPublisher().tryContains { _ in throw TestError("p") }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "failure(p)"])
    }
}
