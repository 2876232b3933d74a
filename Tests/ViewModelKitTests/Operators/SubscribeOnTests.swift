import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct SubscribeOnTests {
    @Test func subscribesOnTheSchedulerAndPassesValuesStraightThrough() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let subscriptions = Counter()
        let recorder = Recorder<Int, TestError>()
        Deferred { () -> PassthroughSubject<Int, TestError> in
            _ = subscriptions.next()
            return subject
        }.subscribe(on: scheduler).subscribe(recorder)
        #expect(subscriptions.value == 0)
        #expect(recorder.events == [])
        scheduler.advance()
        #expect(subscriptions.value == 1)
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func requestAndCancelRunOnTheScheduler() {
        let scheduler = TestScheduler()
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        subject.logRequests(to: log).subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        #expect(log.entries == ["request max(1)"])
        subject.send(1)
        subject.send(2)  // beyond the demand: dropped by the subject
        recorder.request(.max(1))
        #expect(log.entries == ["request max(1)"])
        scheduler.advance()
        #expect(log.entries == ["request max(1)", "request max(1)"])
        recorder.cancel()
        subject.send(3)  // nothing after cancel, even before the upstream cancel has run
        #expect(log.entries == ["request max(1)", "request max(1)"])
        scheduler.advance()
        #expect(log.entries == ["request max(1)", "request max(1)", "cancel"])
        #expect(recorder.events == [.subscription, .value(1)])
    }
}
