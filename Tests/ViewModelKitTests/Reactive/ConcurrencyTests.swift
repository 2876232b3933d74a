import Dispatch
import Synchronization
import Testing
import ViewModelKit

/// Counts entries into a subscriber and notices if two threads are ever inside at once.
private final class OverlapProbe: @unchecked Sendable {
    let inside = Atomic<Bool>(false)
    let overlaps = Atomic<Int>(0)
    let received = Atomic<Int>(0)

    func enter() {
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlaps.add(1, ordering: .relaxed)
        }
        // Stay inside a little so that overlaps would be caught.
        for _ in 0..<100 { _ = received.load(ordering: .relaxed) }
        received.add(1, ordering: .relaxed)
        inside.store(false, ordering: .releasing)
    }
}

// Point 10 with real threads (concurrentPerform), for every subject flavour.
@Suite struct ConcurrencyTests {
    static let threads = 4
    static let perThread = 5_000

    @Test func passthroughSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let probe = OverlapProbe()
        let token = subject.sink { _ in probe.enter() }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { t in
            for i in 0..<Self.perThread { subject.send(t * Self.perThread + i) }
        }
        token.cancel()
        #expect(probe.overlaps.load(ordering: .relaxed) == 0)
        #expect(probe.received.load(ordering: .relaxed) == Self.threads * Self.perThread)
    }

    @Test func currentValueSubject() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let probe = OverlapProbe()
        let token = subject.sink { _ in probe.enter() }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { t in
            for i in 0..<Self.perThread { subject.send(t * Self.perThread + i) }
        }
        token.cancel()
        #expect(probe.overlaps.load(ordering: .relaxed) == 0)
        #expect(probe.received.load(ordering: .relaxed) == Self.threads * Self.perThread + 1)
    }

    @Test func observableObjectPublisherThroughOperators() {
        let publisher = ObservableObjectPublisher()
        let probe = OverlapProbe()
        let token = publisher.map { 1 }.filter { $0 == 1 }.sink { _ in probe.enter() }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.perThread { publisher.send() }
        }
        token.cancel()
        #expect(probe.overlaps.load(ordering: .relaxed) == 0)
        #expect(probe.received.load(ordering: .relaxed) == Self.threads * Self.perThread)
    }

    // Subscribing, cancelling and requesting while other threads send: no crash, no overlap,
    // no value beyond demand.
    @Test func churnWhileSending() {
        let subject = PassthroughSubject<Int, Never>()
        let probe = OverlapProbe()
        let keeper = subject.sink { _ in probe.enter() }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { t in
            if t == 0 {
                for i in 0..<Self.perThread { subject.send(i) }
            } else {
                for _ in 0..<200 {
                    let recorder = Recorder<Int, Never>(initialDemand: .max(3))
                    subject.subscribe(recorder)
                    recorder.request(.max(2))
                    recorder.cancel()
                    #expect(recorder.values.count <= 5)
                }
            }
        }
        subject.send(completion: .finished)
        keeper.cancel()
        #expect(probe.overlaps.load(ordering: .relaxed) == 0)
        #expect(probe.received.load(ordering: .relaxed) == Self.perThread)
    }
}
