import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.DropUntilOutput` and the operator that returns it.
@Suite struct DropUntilOutputTests {
    @Test func dropPassesValuesAfterTheTriggerAndDroppedValuesUseDemand() {
        let upstream = ManualPublisher<Int, TestError>()
        let trigger = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2))
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        #expect(upstream.send(1) == .none)
        trigger.send(0)
        trigger.send(0)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .value(3), .finished])
        #expect(upstream.log.entries == ["request max(2)"])
    }

    @Test func dropFailsWithTheTriggersFailure() {
        let upstream = ManualPublisher<Int, TestError>()
        let trigger = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(completion: .failure(TestError("t")))
        upstream.send(1)
        #expect(recorder.events == [.subscription, .failure(TestError("t"))])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }

    @Test func dropFinishesWhenTheTriggerFinishesEmpty() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>()
        upstream.drop(untilOutputFrom: Empty<Int, Never>()).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.log.entries == ["cancel"])
    }

    // Combine's order: the subscriber's subscription, then the trigger, then upstream; demand
    // asked for before upstream's subscription arrives is passed on when it does.
    @Test func theTriggerIsSubscribedBeforeUpstream() {
        let prefixed = Recorder<Int, Never>()
        [1, 2, 3].publisher.prefix(untilOutputFrom: Just(())).subscribe(prefixed)
        #expect(prefixed.events == [.subscription, .finished])
        let dropped = Recorder<Int, Never>()
        [1, 2, 3].publisher.drop(untilOutputFrom: Just(0)).subscribe(dropped)
        #expect(dropped.events == [.subscription, .value(1), .value(2), .value(3), .finished])
        let scheduler = TestScheduler()
        let log = DemandLog()
        let late = Recorder<Int, Never>(initialDemand: .max(4))
        Empty<Int, Never>(completeImmediately: false).logRequests(to: log).subscribe(on: scheduler)
            .drop(untilOutputFrom: Just(0)).subscribe(late)
        #expect(late.events == [.subscription])
        scheduler.advance()
        #expect(log.entries == ["request max(4)"])
        late.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    @Test func dropIgnoresTheTriggersCompletionAfterItFired() {
        let upstream = ManualPublisher<Int, TestError>()
        let trigger = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(0)
        trigger.send(completion: .failure(TestError("late")))
        upstream.send(5)
        #expect(recorder.events == [.subscription, .value(5)])
        #expect(trigger.log.entries == ["request max(1)", "cancel"])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }
}
