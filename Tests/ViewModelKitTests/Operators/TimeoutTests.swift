import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct TimeoutTests {
    @Test func finishesAfterSilence() {
        let scheduler = TestScheduler()
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        var completedAt: Int64?
        recorder.onCompletion = { completedAt = scheduler.now.nanoseconds }
        subject.logRequests(to: log).timeout(.nanoseconds(10), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .nanoseconds(5))
        subject.send(1)  // restarts the timer: next deadline t = 15
        scheduler.advance(by: .nanoseconds(9))
        #expect(recorder.events == [.subscription, .value(1)])
        scheduler.advance(by: .nanoseconds(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(completedAt == 15)
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func failsWithTheCustomError() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.timeout(.nanoseconds(10), scheduler: scheduler, customError: { TestError("timeout") })
            .subscribe(recorder)
        scheduler.advance(by: .nanoseconds(10))
        #expect(recorder.events == [.subscription, .failure(TestError("timeout"))])
    }

    @Test func upstreamCompletionBeforeTheDeadlineWins() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.timeout(.nanoseconds(10), scheduler: scheduler, customError: { TestError("timeout") })
            .subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("own")))
        scheduler.advance(by: .nanoseconds(30))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("own"))])
    }

    @Test func cancelStopsTheTimer() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.timeout(.nanoseconds(10), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        scheduler.advance(by: .nanoseconds(30))
        #expect(recorder.events == [.subscription])
    }

    @Test func demandPassesThrough() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        subject.timeout(.nanoseconds(10), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.detachIfRunning()
    }
}
