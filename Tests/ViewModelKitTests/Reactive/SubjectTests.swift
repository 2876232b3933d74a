import Synchronization
import Testing
import ViewModelKit

@Suite struct PassthroughSubjectTests {
    @Test func deliversOnlyWhileDemandIsOutstanding() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2))
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)  // no demand: dropped
        recorder.request(.max(1))
        subject.send(4)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(4), .finished])
    }

    @Test func demandReturnedFromReceiveAddsUp() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        subject.subscribe(recorder)
        for i in 1...3 { subject.send(i) }
        #expect(recorder.values == [1, 2, 3])
        recorder.detachIfRunning()
    }

    @Test func completionEndsStreamAndLateSubscribersGetItAtOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        let early = Recorder<Int, TestError>()
        subject.subscribe(early)
        subject.send(completion: .failure(TestError()))
        subject.send(1)
        subject.send(completion: .finished)
        let late = Recorder<Int, TestError>()
        subject.subscribe(late)
        #expect(early.events == [.subscription, .failure(TestError())])
        #expect(late.events == [.subscription, .failure(TestError())])
    }

    @Test func cancelStopsDeliveryAndOthersContinue() {
        let subject = PassthroughSubject<Int, Never>()
        let a = Recorder<Int, Never>()
        let b = Recorder<Int, Never>()
        subject.subscribe(a)
        subject.subscribe(b)
        subject.send(1)
        a.cancel()
        a.cancel()  // harmless
        subject.send(2)
        subject.send(completion: .finished)
        #expect(a.events == [.subscription, .value(1)])
        #expect(b.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func subscribersReceiveInSubscriptionOrder() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let c1 = subject.sink { log.append("a\($0)") }
        let c2 = subject.sink { log.append("b\($0)") }
        subject.send(1)
        #expect(log == ["a1", "b1"])
        withExtendedLifetime((c1, c2)) {}
    }

    // Point 6: a send from inside a sink is delivered depth-first on the same thread.
    @Test func reentrantSendIsDeliveredDepthFirst() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let c1 = subject.sink { value in
            log.append("a\(value)")
            if value == 1 { subject.send(2) }
            log.append("a\(value)-end")
        }
        let c2 = subject.sink { log.append("b\($0)") }
        subject.send(1)
        #expect(log == ["a1", "a2", "a2-end", "b2", "a1-end", "b1"])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func reentrantCompletionFromSink() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        recorder.onValue = { _ in subject.send(completion: .finished) }
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func cancelFromInsideReceiveStopsLaterValues() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        recorder.onValue = { [unowned recorder] _ in recorder.cancel() }
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func sendSubscriptionRequestsUnlimitedOnceASubscriberHasDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let log = DemandLog()
        subject.send(subscription: LoggingSubscription(log))
        #expect(log.entries == [])
        subject.subscribe(Recorder<Int, Never>())
        #expect(log.entries == ["request unlimited"])
    }

    // Point 10: concurrent sends never overlap inside one subscriber.
    @Test func concurrentSendsNeverOverlapInOneSubscriber() async {
        let subject = PassthroughSubject<Int, Never>()
        let inside = Atomic<Bool>(false)
        let overlaps = Atomic<Int>(0)
        let received = Atomic<Int>(0)
        let cancellable = subject.sink { _ in
            if inside.exchange(true, ordering: .acquiringAndReleasing) {
                overlaps.add(1, ordering: .relaxed)
            }
            for _ in 0..<50 { _ = received.load(ordering: .relaxed) }
            received.add(1, ordering: .relaxed)
            inside.store(false, ordering: .releasing)
        }
        let threads = 4
        let perThread = 2_000
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<threads {
                group.addTask {
                    for i in 0..<perThread { subject.send(t * perThread + i) }
                }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(received.load(ordering: .relaxed) == threads * perThread)
        cancellable.cancel()
    }

    // Point 10: cancel and request from other threads while values flow.
    @Test func cancelAndRequestFromOtherThreadsAreSafe() async {
        let subject = PassthroughSubject<Int, Never>()
        let recorders = (0..<8).map { _ in Recorder<Int, Never>(initialDemand: .max(1)) }
        for r in recorders { subject.subscribe(r) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for i in 0..<2_000 { subject.send(i) } }
            for (index, r) in recorders.enumerated() {
                group.addTask {
                    for _ in 0..<100 { r.request(.max(1)) }
                    if index.isMultiple(of: 2) { r.cancel() }
                }
            }
        }
        subject.send(completion: .finished)
        for r in recorders { #expect(r.values.count <= 101) }
        for (index, r) in recorders.enumerated() where !index.isMultiple(of: 2) {
            #expect(r.events.last == .finished)
        }
    }
}

@Suite struct CurrentValueSubjectTests {
    @Test func newSubscriberGetsCurrentValueOnDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        subject.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        subject.send(2)  // no demand left: missed
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(1))  // the missed current value comes at once
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        subject.value = 3
        #expect(subject.value == 3)
        #expect(recorder.values == [1, 2])
        recorder.detachIfRunning()
    }

    // Point 2: stores first, then delivers.
    @Test func storesFirstThenDelivers() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var seen: [String] = []
        let c = subject.sink { value in seen.append("\(value):\(subject.value)") }
        subject.send(1)
        subject.value = 2
        #expect(seen == ["0:0", "1:1", "2:2"])
        c.cancel()
    }

    // Point 6 for CurrentValueSubject: nested send inside a sink, depth-first, value already stored.
    @Test func reentrantSendIsDepthFirst() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var log: [String] = []
        let c1 = subject.sink { value in
            log.append("a\(value) stored=\(subject.value)")
            if value == 1 { subject.send(2) }
        }
        let c2 = subject.sink { log.append("b\($0) stored=\(subject.value)") }
        subject.send(1)
        #expect(
            log == [
                "a0 stored=0", "b0 stored=0",
                "a1 stored=1", "a2 stored=2", "b2 stored=2", "b1 stored=2",
            ])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func completionIsDeliveredAndLaterSendsIgnored() {
        let subject = CurrentValueSubject<Int, TestError>(5)
        let recorder = Recorder<Int, TestError>()
        subject.subscribe(recorder)
        subject.send(completion: .failure(TestError()))
        subject.send(6)
        #expect(recorder.events == [.subscription, .value(5), .failure(TestError())])
        #expect(subject.value == 5)
    }

    // The replayed value lives in a slot of the subject's own (not an `Output?` field): an
    // optional `Output` replays its `nil`, and the value after completion is stored, as Combine's.
    @Test func optionalOutputReplaysNilAndValueSetAfterCompletionIsStored() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        let recorder = Recorder<Int?, Never>()
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        subject.value = 2
        #expect(recorder.values == [nil, 1])
        #expect(subject.value == 2)
    }

    // The slot holds the value strongly, replaces it and releases the last one with the subject.
    @Test func storedValuesAreReleasedWhenReplacedAndWithTheSubject() {
        final class Token {}
        weak var first: Token?
        weak var second: Token?
        do {
            let subject = CurrentValueSubject<Token, Never>(Token())
            first = subject.value
            #expect(first != nil)
            subject.value = Token()
            second = subject.value
            #expect(first == nil)
            #expect(second != nil)
        }
        #expect(second == nil)
    }
}

/// Logs request/cancel calls, as an upstream stand-in.
final class LoggingSubscription: Subscription, @unchecked Sendable {
    let log: DemandLog
    init(_ log: DemandLog) { self.log = log }
    func request(_ demand: Subscribers.Demand) { log.append("request \(demand)") }
    func cancel() { log.append("cancel") }
}
