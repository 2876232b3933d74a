import Testing
import ViewModelKit
import ViewModelKitSchedulers

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

/// `throttle` decides what to emit when its scheduled emission runs, on the
/// scheduler, as Combine's does; it used to deliver the first value of a burst from the
/// upstream's `receive`.
@Suite struct ThrottleSemanticsTests {
    private func sendBeforeTheSchedulerRuns(latest: Bool) -> [Int] {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: latest).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        scheduler.advance(by: .nanoseconds(30))
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
        return recorder.values
    }

    @Test func latestTrueEmitsOnlyTheNewestValueSentBeforeTheSchedulerRuns() {
        #expect(sendBeforeTheSchedulerRuns(latest: true) == [3])
    }

    @Test func latestFalseEmitsOnlyTheFirstValueSentBeforeTheSchedulerRuns() {
        #expect(sendBeforeTheSchedulerRuns(latest: false) == [1])
    }

    /// A value arriving without demand is dropped at once, as Combine's: demand that comes later
    /// does not bring it back.
    @Test func aValueWithoutDemandIsDroppedEvenIfDemandArrivesBeforeTheInterval() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        var times: [Int64] = []
        recorder.onValue = { _ in times.append(scheduler.now.nanoseconds) }
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: false).subscribe(recorder)
        subject.send(1)
        scheduler.advance(by: .nanoseconds(2))
        subject.send(2)
        recorder.request(.max(1))
        scheduler.advance(by: .nanoseconds(20))
        #expect(recorder.values == [1])
        subject.send(3)
        scheduler.advance(by: .nanoseconds(20))
        #expect(recorder.values == [1, 3])
        #expect(times == [0, 22])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    /// Combine's demand sequence: with `.max(2)`, 1 (5 and 6 dropped while 1 waits), then 2 one
    /// interval later, then nothing.
    @Test func demandIsSpentWhenTheEmissionRuns() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        var times: [Int64] = []
        recorder.onValue = { _ in times.append(scheduler.now.nanoseconds) }
        subject.throttle(for: .nanoseconds(10), scheduler: scheduler, latest: false).subscribe(recorder)
        subject.send(1)
        subject.send(5)
        subject.send(6)
        scheduler.advance()
        subject.send(2)
        scheduler.advance(by: .nanoseconds(10))
        subject.send(3)
        scheduler.advance(by: .nanoseconds(30))
        #expect(recorder.values == [1, 2])
        #expect(times == [0, 10])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    /// Sent from inside the downstream on an immediate scheduler: each re-entrant value is
    /// scheduled and emitted in turn (Combine's recursion test).
    @Test func reentrantValuesOnAnImmediateSchedulerAreEachEmitted() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        var remaining = 3
        recorder.onValue = { _ in
            guard remaining > 0 else { return }
            remaining -= 1
            subject.send(-1)
        }
        subject.throttle(for: .seconds(60), scheduler: ImmediateScheduler.shared, latest: true).subscribe(recorder)
        subject.send(0)
        #expect(recorder.values == [0, -1, -1, -1])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }
}

/// `throttle`'s demand and scheduler traffic, as OpenCombine's Combine-validated `ThrottleTests`
/// record: `.unlimited` asked of the upstream at once; `.none` answered to each value; the first
/// value is one `schedule` at once (not delivered in the upstream's call); values arriving while
/// an emission is scheduled schedule nothing; a value within `interval` of the last emission is
/// one `schedule(after: last emission + interval, tolerance: minimumTolerance)`; a completion
/// with an emission scheduled follows it without another schedule; a value without demand is
/// dropped and schedules nothing.
@Suite struct ThrottleTrafficTests {
    @Test func theFirstValueIsScheduledAtOnceAndTheNextAfterTheInterval() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(100), demandPerValue: .max(12))
        upstream.throttle(for: .nanoseconds(1337), scheduler: scheduler.recording(to: log), latest: true)
            .subscribe(recorder)
        #expect(upstream.log.entries == ["request unlimited"])
        #expect(upstream.send(1) == .none)
        #expect(log.calls == ["schedule"])
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(log.calls == ["schedule"])
        #expect(recorder.events == [.subscription])
        scheduler.advance()
        #expect(recorder.values == [3])
        #expect(upstream.send(4) == .none)
        let interval = MonotonicInstant.Stride.nanoseconds(1337)
        let after = "schedule(after: \(interval), tolerance: \(scheduler.minimumTolerance))"
        #expect(log.calls == ["schedule", after])
        upstream.send(completion: .failure(TestError()))
        upstream.send(completion: .finished)
        #expect(upstream.send(5) == .none)
        #expect(log.calls == ["schedule", after])
        scheduler.advance(by: .nanoseconds(1337))
        #expect(rendered(recorder.events) == ["subscription", "value(3)", "value(4)", "failure(boom)"])
        #expect(upstream.log.entries == ["request unlimited"])
        #expect(scheduler.now == MonotonicInstant(nanoseconds: 1337))
    }

    @Test func aValueWithoutDemandIsDroppedAndSchedulesNothing() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2))
        upstream.throttle(for: .nanoseconds(1337), scheduler: scheduler.recording(to: log), latest: false)
            .subscribe(recorder)
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(5) == .none)
        #expect(upstream.send(6) == .none)
        scheduler.advance()
        #expect(upstream.send(2) == .none)
        scheduler.advance(by: .nanoseconds(1337))
        #expect(recorder.values == [1, 2])
        #expect(log.calls.count == 2)
        #expect(upstream.send(3) == .none)
        #expect(log.calls.count == 2)
        scheduler.advance(by: .nanoseconds(10_000))
        #expect(recorder.values == [1, 2])
        recorder.detach()
    }
}
