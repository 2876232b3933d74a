import Dispatch
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.PrefixUntilOutput` and the operator that returns it.
@Suite struct PrefixUntilOutputTests {
    @Test func prefixUntilOutputNeverDeliversAfterItsCompletion() {
        for _ in 0..<50 {
            let subject = PassthroughSubject<Int, Never>()
            let trigger = PassthroughSubject<Void, Never>()
            let recorder = Recorder<Int, Never>()
            subject.prefix(untilOutputFrom: trigger).subscribe(recorder)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                for value in 1...500 { subject.send(value) }
            }
            DispatchQueue.global().async(group: group) { trigger.send(()) }
            group.wait()
            let events = recorder.events
            #expect(events.last == .finished)
            #expect(events.filter { $0 == .finished }.count == 1)
            // `1..<count + 1`: the trigger may win before any value (an empty prefix), and
            // `1...0` traps.
            #expect(recorder.values == Array(1..<recorder.values.count + 1))
        }
    }

    @Test func prefixFinishesAtTheTriggersFirstValue() {
        let upstreamLog = DemandLog()
        let triggerLog = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let trigger = PassthroughSubject<String, Never>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(5))
        subject.logRequests(to: upstreamLog)
            .prefix(untilOutputFrom: trigger.logRequests(to: triggerLog))
            .subscribe(recorder)
        subject.send(1)
        subject.send(2)
        trigger.send("stop")
        subject.send(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstreamLog.entries == ["request max(5)", "cancel"])
        #expect(triggerLog.entries == ["request max(1)", "cancel"])
    }

    @Test func prefixIgnoresTheTriggersCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, TestError>()
        let recorder = Recorder<Int, Never>()
        subject.prefix(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(completion: .failure(TestError("ignored")))
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func prefixWithAnImmediateTriggerFinishesAtOnce() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.logRequests(to: log).prefix(untilOutputFrom: Just(())).subscribe(recorder)
        subject.send(1)
        #expect(recorder.events == [.subscription, .finished])
        // Upstream is subscribed after the stream has ended: its subscription is cancelled.
        #expect(log.entries == ["cancel"])
    }
}
