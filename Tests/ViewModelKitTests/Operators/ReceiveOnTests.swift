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
        // The sequence finished right after sending 3; the demand 3's delivery returns still
        // goes to it, as Combine's `ReceiveOn` asks (`ReceiveOnTrafficTests`).
        #expect(log.entries == ["request max(1)", "request max(1)", "request max(1)", "request max(1)"])
    }
}

/// `receive(on:)`'s demand and scheduler traffic, as OpenCombine's Combine-validated
/// `ReceiveOnTests` record: one `schedule` (never `schedule(after:)`) per value and one for the
/// completion; `.none` answered to each value; each request passed upstream as it comes (`.none`
/// too); the demand a delivered value returns requested upstream after that delivery, also when
/// the upstream has completed meanwhile; nothing scheduled after the completion.
@Suite struct ReceiveOnTrafficTests {
    @Test func eachValueAndTheCompletionIsOneImmediateSchedule() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(100), demandPerValue: .max(12))
        upstream.receive(on: scheduler.recording(to: log)).subscribe(recorder)
        #expect(upstream.log.entries == ["request max(100)"])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(log.calls == ["schedule", "schedule", "schedule"])
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.values == [1, 2, 3])
        #expect(upstream.log.entries == ["request max(100)", "request max(12)", "request max(12)", "request max(12)"])
        upstream.send(completion: .failure(TestError()))
        upstream.send(completion: .finished)
        #expect(upstream.send(4) == .none)
        #expect(log.calls == ["schedule", "schedule", "schedule", "schedule"])
        scheduler.advance()
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "value(2)", "value(3)", "failure(boom)"])
        #expect(scheduler.now == MonotonicInstant(nanoseconds: 0))
    }

    @Test func requestsPassUpstreamAsTheyComeNoneIncluded() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        upstream.receive(on: scheduler.recording(to: log)).subscribe(recorder)
        recorder.request(.max(10))
        recorder.request(.max(4))
        recorder.request(.none)
        #expect(upstream.log.entries == ["request max(10)", "request max(4)", "request max(0)"])
        #expect(log.calls == [])
        recorder.detach()
    }

    @Test func demandReturnedAfterTheUpstreamCompletedStillReachesIt() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .unlimited, demandPerValue: .max(418))
        upstream.receive(on: scheduler.recording(to: log)).subscribe(recorder)
        #expect(upstream.send(-1) == .none)
        scheduler.advance()
        #expect(upstream.send(1000) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.values == [-1])
        #expect(log.calls == ["schedule", "schedule", "schedule"])
        scheduler.advance()
        #expect(rendered(recorder.events) == ["subscription", "value(-1)", "value(1000)", "finished"])
        #expect(upstream.log.entries == ["request unlimited", "request max(418)", "request max(418)"])
    }

    @Test func aCancelInsideTheDeliveryRequestsNothingMore() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil, demandPerValue: .max(42))
        recorder.onValue = { _ in recorder.cancel() }
        upstream.receive(on: scheduler.recording(to: log)).subscribe(recorder)
        #expect(upstream.send(1) == .none)
        #expect(log.calls == ["schedule"])
        scheduler.advance()
        #expect(recorder.values == [1])
        #expect(upstream.log.entries == ["cancel"])
        recorder.onValue = nil
    }
}
