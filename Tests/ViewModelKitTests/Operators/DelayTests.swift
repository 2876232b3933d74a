import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct DelayTests {
    @Test func shiftsValuesAndCompletionByTheInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        var times: [Int64] = []
        recorder.onValue = { _ in times.append(scheduler.now.nanoseconds) }
        recorder.onCompletion = { times.append(scheduler.now.nanoseconds) }
        subject.delay(for: .nanoseconds(10), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .nanoseconds(3))
        subject.send(2)
        scheduler.advance(by: .nanoseconds(2))
        subject.send(completion: .failure(TestError("late")))
        scheduler.advance(by: .nanoseconds(9))  // t = 14
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        scheduler.advance(by: .nanoseconds(1))  // t = 15
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(TestError("late"))])
        #expect(times == [10, 13, 15])
    }

    @Test func cancelDropsScheduledEvents() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.delay(for: .nanoseconds(10), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        recorder.cancel()
        scheduler.advance(by: .nanoseconds(20))
        #expect(recorder.events == [.subscription])
    }

    @Test func demandPassesThrough() {
        let scheduler = TestScheduler()
        let log = DemandLog()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.logRequests(to: log).delay(for: .nanoseconds(1), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .nanoseconds(5))
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(log.entries == ["request max(2)"])
        recorder.detachIfRunning()
        recorder.detachIfRunning()
    }
}
