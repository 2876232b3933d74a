import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct ReceiveOnTests {
    @Test func deliversValuesThenCompletionInOrderOnTheScheduler() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.receive(on: scheduler).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func failureArrivesAfterQueuedValues() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.receive(on: scheduler).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("f")))
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("f"))])
    }

    @Test func cancelDropsValuesAlreadyQueued() {
        let scheduler = TestScheduler()
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.logRequests(to: log).receive(on: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance()
        subject.send(2)
        subject.send(3)
        recorder.cancel()
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func demandPassesThroughAndExtraDemandIsRequestedAfterDelivery() {
        let scheduler = TestScheduler()
        let log = DemandLog()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        [1, 2, 3].publisher.logRequests(to: log).receive(on: scheduler).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        #expect(log.entries == ["request max(1)", "request max(1)", "request max(1)"])
    }
}
