import Synchronization
import Testing
import ViewModelKit

/// `combineLatest` and `zip` keep their inputs' values typed (one slot or queue per
/// input, no `[Any]`). These pin what that storage must keep exactly: what happens to a combination
/// formed without demand, the demand handed back to each input, order through long queues, and that
/// a displaced value is released after the operator's lock (its `deinit` may send into it).
@Suite struct CombiningStorageTests {
    /// Combine (OpenCombine's `CombineLatestTests.testChildDemand` and
    /// `testUpstreamExceedsDemand`, which run against Combine): every input value gets `.none`
    /// back, even one that forms no combination, and no extra request goes upstream; a
    /// combination formed without demand is dropped, not delivered later. The latest values
    /// stay: the next input value after demand arrives combines them.
    @Test func combineLatestDropsACombinationFormedWithoutDemand() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<Int, Never>()
        let recorder = Recorder<(Int, Int), Never>(initialDemand: nil)
        a.combineLatest(b).subscribe(recorder)
        #expect(a.send(1) == .none)  // no combination yet, and nothing more asked
        #expect(b.send(10) == .none)  // (1, 10): no demand, dropped
        #expect(a.send(2) == .none)  // (2, 10): dropped
        #expect(b.send(20) == .none)  // (2, 20): dropped
        #expect(rendered(recorder.events) == ["subscription"])
        recorder.request(.max(1))
        #expect(rendered(recorder.events) == ["subscription"])  // nothing was kept
        #expect(a.send(3) == .none)  // (3, 20): delivered against the demand
        #expect(rendered(recorder.events) == ["subscription", "value((3, 20))"])
        #expect(a.log.entries == ["request max(1)"])
        #expect(b.log.entries == ["request max(1)"])
        recorder.detach()
    }

    /// Demand the downstream returns from a value is forwarded to every input, once each.
    @Test func combineLatestForwardsDemandReturnedByTheDownstream() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<String, Never>()
        let recorder = Recorder<(Int, String), Never>(initialDemand: .max(1), demandPerValue: .max(2))
        a.combineLatest(b).subscribe(recorder)
        a.send(1)
        b.send("x")
        b.send("y")
        a.send(2)
        #expect(
            rendered(recorder.events) == [
                "subscription", "value((1, \"x\"))", "value((1, \"y\"))", "value((2, \"y\"))",
            ])
        let expected = ["request max(1)", "request max(2)", "request max(2)", "request max(2)"]
        #expect(a.log.entries == expected)
        #expect(b.log.entries == expected)
        recorder.detach()
    }

    /// Combine: zip values wait in their input's queue while there is no demand and pair up in
    /// order when it comes; a finished input with an empty queue ends the stream.
    @Test func zipWithoutDemandQueuesAndPairsInOrder() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<String, Never>()
        let recorder = Recorder<(Int, String), Never>(initialDemand: nil)
        a.zip(b).subscribe(recorder)
        a.send(1)
        a.send(2)
        b.send("x")
        b.send("y")
        b.send("z")
        #expect(rendered(recorder.events) == ["subscription"])
        recorder.request(.max(1))
        #expect(rendered(recorder.events) == ["subscription", "value((1, \"x\"))"])
        recorder.request(.max(5))
        #expect(rendered(recorder.events) == ["subscription", "value((1, \"x\"))", "value((2, \"y\"))"])
        a.send(3)
        a.send(4)
        a.send(completion: .finished)  // 4 still waits: not exhausted yet
        #expect(recorder.values.map { "\($0.0)\($0.1)" } == ["1x", "2y", "3z"])
        #expect(rendered(recorder.events).last == "value((3, \"z\"))")
        b.send("w")
        #expect(rendered(recorder.events).suffix(2) == ["value((4, \"w\"))", "finished"])
        #expect(a.log.entries == ["request max(1)", "request max(5)"])
    }

    /// A long backlog on one input (past the queue's compaction threshold) keeps its order,
    /// with values of three different types.
    @Test func zipKeepsOrderThroughALongBacklog() {
        let a = ManualPublisher<Int, Never>()
        let b = ManualPublisher<String, Never>()
        let c = ManualPublisher<Bool, Never>()
        let recorder = Recorder<(Int, String, Bool), Never>()
        a.zip(b, c).subscribe(recorder)
        for i in 0..<150 { a.send(i) }
        for i in 0..<300 {
            b.send("\(i)")
            c.send(i % 2 == 0)
            if i >= 150 { a.send(i) }
        }
        let values = recorder.values
        #expect(values.count == 300)
        #expect(values.map(\.0) == Array(0..<300))
        #expect(values.map(\.1) == (0..<300).map { "\($0)" })
        #expect(values.map(\.2) == (0..<300).map { $0 % 2 == 0 })
        recorder.detach()
    }

    /// A value displaced from combineLatest's latest slot is released after the operator's
    /// lock: its `deinit` sending into the same operator must not deadlock, and every value is
    /// released exactly once.
    @Test func combineLatestReleasesADisplacedValueOutsideItsLock() {
        let a = PassthroughSubject<Token, Never>()
        let b = PassthroughSubject<Int, Never>()
        let released = ReleaseCount()
        let recorder = Recorder<(Token, Int), Never>()
        a.combineLatest(b).subscribe(recorder)
        a.send(Token(1, released) { b.send(100) })  // no combination yet
        a.send(Token(2, released))  // displaces token 1, whose deinit sends into b
        #expect(released.value == 1)
        #expect(recorder.values.map { "\($0.0.id),\($0.1)" } == ["2,100"])
        b.send(101)
        #expect(recorder.values.map { "\($0.0.id),\($0.1)" } == ["2,100", "2,101"])
        recorder.cancel()
        recorder.detach()
        #expect(recorder.values.count == 2)
    }

    /// Zip's queued values are released once paired and delivered, and the queue of a cancelled
    /// zip is released at the cancel.
    @Test func zipReleasesQueuedValuesWhenPairedAndAtCancel() {
        let a = PassthroughSubject<Token, Never>()
        let b = PassthroughSubject<Int, Never>()
        let released = ReleaseCount()
        let recorder = Recorder<(Token, Int), Never>()
        a.zip(b).subscribe(recorder)
        a.send(Token(1, released))
        a.send(Token(2, released))
        a.send(Token(3, released))
        b.send(10)
        #expect(recorder.values.map { "\($0.0.id),\($0.1)" } == ["1,10"])
        #expect(released.value == 0)  // the recorder keeps token 1
        recorder.detach()  // cancels: tokens 2 and 3 go
        #expect(released.value == 2)
    }
}

/// Counts releases of `Token`s.
final class ReleaseCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .relaxed) }
    func add() { count.add(1, ordering: .relaxed) }
}

/// A value that counts its release and may run `onRelease` from its `deinit`.
final class Token: @unchecked Sendable {
    let id: Int
    let released: ReleaseCount
    let onRelease: (() -> Void)?

    init(_ id: Int, _ released: ReleaseCount, onRelease: (() -> Void)? = nil) {
        self.id = id
        self.released = released
        self.onRelease = onRelease
    }

    deinit {
        released.add()
        onRelease?()
    }
}
