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

@Suite struct ThrottleTests {
    private func burst(latest: Bool) -> ([Int], [Int64]) {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        var times: [Int64] = []
        recorder.onValue = { _ in times.append(scheduler.now.nanoseconds) }
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: latest).subscribe(recorder)
        for value in 1...4 {
            subject.send(value)  // t = 0, 1, 2, 3
            scheduler.advance(by: .nanoseconds(1))
        }
        scheduler.advance(by: .nanoseconds(30))
        return (recorder.values, times)
    }

    @Test func firstValueAtOnceThenTheFirstOfTheBurstAtTheEndOfTheInterval() {
        let (values, times) = burst(latest: false)
        #expect(values == [1, 2])
        #expect(times == [0, 10])
    }

    @Test func latestTrueEmitsTheNewestValueAtTheEndOfTheInterval() {
        let (values, times) = burst(latest: true)
        #expect(values == [1, 4])
        #expect(times == [0, 10])
    }

    @Test func aValueAfterAQuietIntervalIsEmittedAtOnce() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: false).subscribe(recorder)
        subject.send(1)
        scheduler.advance()
        #expect(recorder.values == [1])
        scheduler.advance(by: .nanoseconds(15))
        subject.send(2)
        scheduler.advance()
        #expect(recorder.values == [1, 2])
        recorder.detachIfRunning()
    }

    @Test func aHeldValueIsDeliveredAtTheEndOfItsIntervalThenTheCompletion() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        var times: [Int64] = []
        recorder.onValue = { _ in times.append(scheduler.now.nanoseconds) }
        recorder.onCompletion = { times.append(scheduler.now.nanoseconds) }
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: true).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .nanoseconds(2))
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        scheduler.advance(by: .nanoseconds(20))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(times == [0, 10, 10])
    }

    @Test func completionWithNothingHeldGoesThroughTheSchedulerAtOnce() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: false).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("t")))
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("t"))])
    }

    @Test func cancelStopsEverything() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: true).subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        scheduler.advance(by: .nanoseconds(20))
        #expect(recorder.events == [.subscription])
    }

    @Test func respectsDemand() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: true).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .nanoseconds(5))
        subject.send(2)
        scheduler.advance(by: .nanoseconds(10))
        #expect(recorder.values == [1])
        recorder.detachIfRunning()
    }
}

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
