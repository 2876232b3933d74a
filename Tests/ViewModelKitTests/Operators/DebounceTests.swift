import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct DebounceTests {
    @Test func emitsOnceAfterTheQuietPeriod() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        var times: [Int64] = []
        recorder.onValue = { _ in times.append(scheduler.now.nanoseconds) }
        subject.debounce(for: .nanoseconds(13), scheduler: scheduler).subscribe(recorder)

        subject.send(1)  // t = 0
        scheduler.advance(by: .nanoseconds(4))
        subject.send(2)  // t = 4
        scheduler.advance(by: .nanoseconds(5))
        subject.send(3)  // t = 9
        scheduler.advance(by: .nanoseconds(12))  // t = 21
        #expect(recorder.events == [.subscription])
        scheduler.advance(by: .nanoseconds(1))  // t = 22
        #expect(recorder.events == [.subscription, .value(3)])
        #expect(times == [22])
        scheduler.advance(by: .nanoseconds(100))
        #expect(recorder.events == [.subscription, .value(3)])
        recorder.detachIfRunning()
    }

    @Test func finishingBeforeTheDueTimeDropsThePendingValueAndSchedulesTheCompletion() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        var completedAt: Int64?
        recorder.onCompletion = { completedAt = scheduler.now.nanoseconds }
        subject.debounce(for: .nanoseconds(13), scheduler: scheduler).subscribe(recorder)

        subject.send(1)
        scheduler.advance(by: .nanoseconds(5))
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])  // not delivered synchronously
        scheduler.advance()
        #expect(recorder.events == [.subscription, .finished])
        #expect(completedAt == 5)
        scheduler.advance(by: .nanoseconds(20))
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func failureIsDeliveredThroughTheScheduler() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.debounce(for: .nanoseconds(13), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .nanoseconds(13))
        subject.send(completion: .failure(TestError("d")))
        #expect(recorder.events == [.subscription, .value(1)])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("d"))])
    }

    @Test func cancelDropsThePendingValue() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.debounce(for: .nanoseconds(13), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        scheduler.advance(by: .nanoseconds(50))
        #expect(recorder.events == [.subscription])
    }

    @Test func aValueMeetingNoDemandIsDropped() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        subject.debounce(for: .nanoseconds(13), scheduler: scheduler).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .nanoseconds(13))
        recorder.request(.max(1))
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .nanoseconds(13))
        subject.send(4)
        scheduler.advance(by: .nanoseconds(13))
        #expect(recorder.events == [.subscription, .value(3)])
        recorder.detachIfRunning()
    }
}
