import Testing
import ViewModelKit

/// Tests of `Publishers.AllSatisfy` and the operator that returns it.
@Suite struct AllSatisfyTests {
    @Test func allSatisfyAnswersFalseAtTheFirstFailure() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Bool, Never>(initialDemand: nil)
        var tested: [Int] = []
        subject.logRequests(to: log).allSatisfy {
            tested.append($0)
            return $0 < 3
        }.subscribe(recorder)
        subject.send(1)
        subject.send(5)
        subject.send(2)
        #expect(tested == [1, 5])
        #expect(log.entries == ["request unlimited", "cancel"])
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(false), .finished])
    }

    @Test func allSatisfyOfEmptyIsTrue() {
        let recorder = Recorder<Bool, Never>()
        Empty<Int, Never>().allSatisfy { _ in false }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(true), .finished])
        let tried = Recorder<Bool, any Error>()
        [1, 2].publisher.eraseToAnyPublisher().tryAllSatisfy { $0 > 0 }.subscribe(tried)
        #expect(rendered(tried.events) == ["subscription", "value(true)", "finished"])
    }
}
