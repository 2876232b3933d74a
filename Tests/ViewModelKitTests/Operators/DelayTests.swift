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

/// `delay`'s demand and scheduler traffic, as OpenCombine's Combine-validated `DelayTests`
/// record: each value and the completion is one `schedule(after: now + interval)` with the
/// given tolerance (never an immediate `schedule`); `.none` answered to each value; requests
/// passed straight upstream; the demand a delivered value returns requested after its delivery,
/// even when the upstream completed meanwhile; nothing scheduled after the completion or a
/// cancel.
@Suite struct DelayTrafficTests {
    static func delayed(_ nanoseconds: Int) -> String {
        let delay = MonotonicInstant.Stride.nanoseconds(nanoseconds)
        return "schedule(after: \(delay), tolerance: \(MonotonicInstant.Stride.nanoseconds(5)))"
    }

    @Test func eachValueAndTheCompletionIsOneDelayedSchedule() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(100), demandPerValue: .max(12))
        upstream.delay(for: .nanoseconds(200), tolerance: .nanoseconds(5), scheduler: scheduler.recording(to: log))
            .subscribe(recorder)
        #expect(upstream.log.entries == ["request max(100)"])
        #expect(log.calls == [])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(log.calls == [Self.delayed(200), Self.delayed(200), Self.delayed(200)])
        scheduler.advance(by: .nanoseconds(200))
        #expect(recorder.values == [1, 2, 3])
        #expect(upstream.log.entries == ["request max(100)", "request max(12)", "request max(12)", "request max(12)"])
        upstream.send(completion: .failure(TestError()))
        upstream.send(completion: .finished)
        #expect(upstream.send(4) == .none)
        #expect(log.calls == [Self.delayed(200), Self.delayed(200), Self.delayed(200), Self.delayed(200)])
        scheduler.advance(by: .nanoseconds(200))
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(2)", "value(3)", "failure(boom)"])
        #expect(scheduler.now == MonotonicInstant(nanoseconds: 400))
    }

    @Test func demandReturnedAfterTheUpstreamCompletedStillReachesIt() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .unlimited, demandPerValue: .max(418))
        upstream.delay(for: .nanoseconds(123), tolerance: .nanoseconds(5), scheduler: scheduler.recording(to: log))
            .subscribe(recorder)
        #expect(upstream.send(-1) == .none)
        scheduler.advance(by: .nanoseconds(123))
        #expect(upstream.send(1000) == .none)
        upstream.send(completion: .finished)
        #expect(log.calls == [Self.delayed(123), Self.delayed(123), Self.delayed(123)])
        scheduler.advance(by: .nanoseconds(123))
        #expect(rendered(recorder.events) == ["subscription", "value(-1)", "value(1000)", "finished"])
        #expect(upstream.log.entries == ["request unlimited", "request max(418)", "request max(418)"])
    }

    @Test func aCancelSchedulesNothingAndPassesNothingOn() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .unlimited)
        upstream.delay(for: .nanoseconds(200), tolerance: .nanoseconds(5), scheduler: scheduler.recording(to: log))
            .subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(42))
        recorder.cancel()
        #expect(upstream.send(0) == .none)
        upstream.send(completion: .finished)
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
        #expect(log.calls == [])
        #expect(recorder.events == [.subscription])
    }
}
