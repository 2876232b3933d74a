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

/// `debounce`'s scheduler traffic, as OpenCombine's Combine-validated `DebounceTests` record:
/// `.unlimited` asked of the upstream at once; each value answered `.none`, cancelling the
/// previous value's timer and starting a repeating one (`schedule(after: now + dueTime,
/// interval: dueTime, tolerance: minimumTolerance)`) that its first firing cancels; the
/// completion drops a pending value, cancels its timer and is one `schedule` at once; nothing
/// after the completion.
@Suite struct DebounceTrafficTests {
    static func timer(after nanoseconds: Int, _ scheduler: TestScheduler) -> String {
        let due = MonotonicInstant.Stride.nanoseconds(nanoseconds)
        let interval = MonotonicInstant.Stride.nanoseconds(13)
        return "schedule(after: \(due), interval: \(interval), tolerance: \(scheduler.minimumTolerance))"
    }

    @Test func eachValueRestartsARepeatingTimerThatItsFirstFiringCancels() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.debounce(for: .nanoseconds(13), scheduler: scheduler.recording(to: log)).subscribe(recorder)
        #expect(upstream.log.entries == ["request unlimited"])
        #expect(upstream.send(1) == .none)
        #expect(log.calls == [Self.timer(after: 13, scheduler)])
        scheduler.advance(to: MonotonicInstant(nanoseconds: 4))
        #expect(upstream.send(2) == .none)
        scheduler.advance(to: MonotonicInstant(nanoseconds: 9))
        #expect(upstream.send(3) == .none)
        scheduler.advance(to: MonotonicInstant(nanoseconds: 200))
        #expect(recorder.values == [3])
        // 1's and 2's timers were cancelled by the next value, 3's by its own firing.
        #expect(scheduler.pendingActionCount == 0)
        let timer = Self.timer(after: 13, scheduler)
        #expect(log.calls == [timer, timer, timer])
        upstream.send(completion: .finished)
        upstream.send(completion: .failure(TestError()))
        #expect(upstream.send(-1) == .none)
        #expect(log.calls.count == 4)
        #expect(log.calls.last == "schedule")
        scheduler.advance(to: MonotonicInstant(nanoseconds: 300))
        #expect(rendered(recorder.events) == ["subscription", "value(3)", "finished"])
        #expect(upstream.log.entries == ["request unlimited"])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func aCompletionBeforeTheDueTimeDropsTheValueAndIsScheduledAtOnce() {
        let scheduler = TestScheduler()
        let log = SchedulerCallLog()
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        upstream.debounce(for: .nanoseconds(13), scheduler: scheduler.recording(to: log)).subscribe(recorder)
        #expect(upstream.send(1) == .none)
        scheduler.advance(to: MonotonicInstant(nanoseconds: 4))
        upstream.send(completion: .failure(TestError()))
        #expect(log.calls == [Self.timer(after: 13, scheduler), "schedule"])
        #expect(recorder.events == [.subscription])
        #expect(scheduler.pendingActionCount == 1)  // the completion; the value's timer is cancelled
        scheduler.advance(to: MonotonicInstant(nanoseconds: 100))
        #expect(rendered(recorder.events) == ["subscription", "failure(boom)"])
    }
}
