import Testing
import ViewModelKit

/// Tests of `Publishers.RemoveDuplicates` and the operator that returns it.
@Suite struct RemoveDuplicatesTests {
    @Test func removeDuplicatesEquatable() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.removeDuplicates().subscribe(recorder)
        for i in [1, 1, 2, 2, 2, 1, 3, 3] { subject.send(i) }
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(1), .value(3), .finished])
    }

    @Test func removeDuplicatesByPredicateComparesWithLastReceived() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(10))
        // "Duplicate" = within 1 of the previous value received (dropped ones included).
        upstream.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(recorder)
        upstream.send(1)
        #expect(upstream.send(2) == .max(1))
        upstream.send(3)  // compared with 2 (dropped, but the last received): dropped too
        upstream.send(5)
        #expect(recorder.values == [1, 5])
        recorder.detachIfRunning()
    }

    /// Each dropped duplicate asks upstream for exactly one more value (the downstream saw
    /// nothing, so its demand is unspent), as Combine; a passed value returns what downstream
    /// returns. Both forms: `==` and `tryRemoveDuplicates(by:)`.
    @Test func removeDuplicatesAsksForOneMoreAfterEachDroppedDuplicate() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        upstream.removeDuplicates().subscribe(recorder)
        #expect(upstream.send(7) == .none)
        #expect(upstream.send(7) == .max(1))
        #expect(upstream.send(7) == .max(1))
        #expect(upstream.send(8) == .none)
        #expect(recorder.values == [7, 8])
        #expect(upstream.log.entries == ["request max(2)"])
        recorder.detachIfRunning()

        let throwing = ManualPublisher<Int, Never>()
        let other = Recorder<Int, Error>(initialDemand: .max(1))
        throwing.tryRemoveDuplicates { $0 == $1 }.subscribe(other)
        #expect(throwing.send(1) == .none)
        #expect(throwing.send(1) == .max(1))
        #expect(other.values == [1])
        other.detachIfRunning()
    }

    @Test func removeDuplicatesFailureAndCancel() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.removeDuplicates().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError())])

        let upstream = ManualPublisher<Int, Never>()
        let other = Recorder<Int, Never>(initialDemand: .max(1))
        upstream.removeDuplicates().subscribe(other)
        other.cancel()
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
    }
}
