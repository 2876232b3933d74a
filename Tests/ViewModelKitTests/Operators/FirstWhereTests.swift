import Testing
import ViewModelKit

/// Tests of `Publishers.FirstWhere` and the operator that returns it.
@Suite struct FirstWhereTests {
    @Test func firstWhereStopsAtTheMatch() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.logRequests(to: log).first { $0.isMultiple(of: 2) }.subscribe(recorder)
        subject.send(1)
        subject.send(4)
        subject.send(6)
        #expect(recorder.events == [.subscription, .value(4), .finished])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func tryFirstAndTryLastWherePassUpstreamFailureAsAnyError() {
        let recorder = Recorder<Int, any Error>()
        Fail<Int, TestError>(error: TestError("up")).tryFirst { _ in true }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "failure(up)"])
        let last = Recorder<Int, any Error>()
        [1, 2].publisher.eraseToAnyPublisher().tryLast { value in
            if value == 2 { throw TestError("two") }
            return true
        }.subscribe(last)
        #expect(rendered(last.events) == ["subscription", "failure(two)"])
    }
}
