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

/// `subscribe(on:)`'s demand and scheduler traffic, as OpenCombine's Combine-validated
/// `SubscribeOnTests` record: the subscription is one `schedule`; every `request` (`.none`
/// included) and the first `cancel` are one `schedule` each, run in order; values and the
/// completion pass through synchronously, the downstream's demand answered straight to the
/// upstream; nothing passes and nothing is scheduled after a cancel.
@Suite struct SubscribeOnTrafficTests {
    @Test func subscribingRequestingAndCancellingAreOneScheduleEach() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil, demandPerValue: .unlimited)
        upstream.subscribe(on: scheduler.recording(to: log)).subscribe(recorder)
        #expect(recorder.events == [])
        #expect(log.calls == ["schedule"])
        scheduler.advance()
        #expect(recorder.events == [.subscription])
        recorder.request(.max(17))
        recorder.request(.unlimited)
        recorder.request(.none)
        #expect(upstream.log.entries == [])
        #expect(log.calls == ["schedule", "schedule", "schedule", "schedule"])
        scheduler.advance()
        #expect(upstream.log.entries == ["request max(17)", "request unlimited", "request max(0)"])
        recorder.cancel()
        #expect(log.calls.count == 5)
        scheduler.advance()
        #expect(upstream.log.entries == ["request max(17)", "request unlimited", "request max(0)", "cancel"])
        recorder.request(.max(20_000))
        recorder.cancel()
        #expect(log.calls.count == 5)
        #expect(upstream.send(1000) == .none)
        #expect(recorder.events == [.subscription])
    }

    @Test func valuesAndTheCompletionPassSynchronously() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(100), demandPerValue: .max(12))
        upstream.subscribe(on: scheduler.recording(to: log)).subscribe(recorder)
        scheduler.advance()
        #expect(upstream.log.entries == ["request max(100)"])
        #expect(log.calls == ["schedule", "schedule"])
        #expect(upstream.send(1) == .max(12))
        #expect(upstream.send(2) == .max(12))
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(TestError()))
        #expect(upstream.send(-1) == .none)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(2)", "finished"])
        #expect(log.calls == ["schedule", "schedule"])
        #expect(upstream.log.entries == ["request max(100)"])
    }
}
