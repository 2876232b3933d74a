import Foundation
import Testing
import ViewModelKit

@Suite struct ConcatenateTests {
    @Test func prependAndAppendValuesAroundTheUpstream() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.prepend(0, 1).append(8, 9).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(0), .value(1)])
        subject.send(5)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(5), .value(8), .value(9), .finished])
    }

    @Test func suffixIsSubscribedOnlyAfterThePrefixFinishes() {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let log = DemandLog()
        let recorder = Recorder<Int, TestError>()
        first.append(second.logRequests(to: log)).subscribe(recorder)
        second.send(99)
        #expect(log.entries.isEmpty)
        first.send(1)
        first.send(completion: .finished)
        second.send(2)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(log.entries == ["request unlimited"])
        recorder.detachIfRunning()
    }

    @Test func prefixFailureEndsTheStream() {
        let log = DemandLog()
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: TestError("p"))
            .append(Publishers.Sequence<[Int], TestError>(sequence: [1]).logRequests(to: log))
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError("p"))])
        #expect(log.entries.isEmpty)
    }

    @Test func demandCarriesIntoTheSuffix() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(4))
        [1, 2, 3].publisher.append([4, 5]).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .finished])
    }

    @Test func cancelStopsBeforeTheSuffix() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.prepend(0).append(9).subscribe(recorder)
        recorder.cancel()
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(0)])
    }

    @Test func prependPublisher() {
        let recorder = Recorder<Int, Never>()
        [3, 4].publisher.prepend([1, 2].publisher).subscribe(recorder)
        #expect(recorder.values == [1, 2, 3, 4])
    }

    @Test func suffixFailureEndsTheStream() {
        let recorder = Recorder<Int, TestError>()
        [1].publisher.setFailureTypeForTest(TestError.self)
            .append(Fail<Int, TestError>(error: TestError("s")))
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("s"))])
    }
}
