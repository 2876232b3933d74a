import Testing
import ViewModelKit

/// A downstream that sends into an upstream from inside its own
/// `receive(_:)`, as Combine handles it.
@Suite struct ReentrancySemanticsTests {
    /// Combine stores the re-entrant value but emits only once per upstream value from outside;
    /// we used to emit again after every delivery, for ever.
    @Test func combineLatestDoesNotEmitForAValueSentFromItsOwnDownstream() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<(Int, Int), Never>()
        var sent = 100
        recorder.onValue = { _ in
            sent += 1
            a.send(sent)
        }
        a.combineLatest(b).subscribe(recorder)
        a.send(1)
        b.send(10)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 10))"])
        // The re-entrant value was kept: the next outside value combines with it.
        b.send(20)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 10))", "value((101, 20))"])
        #expect(sent == 102)
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func combineLatest3DoesNotLoopWhenEveryDeliverySendsAgain() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let recorder = Recorder<(Int, Int, Int), Never>()
        recorder.onValue = { value in b.send(value.1 + 1) }
        a.combineLatest(b, c).subscribe(recorder)
        a.send(1)
        b.send(1)
        c.send(1)
        c.send(2)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 1, 1))", "value((1, 2, 2))"])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    /// Zip pairs a re-entrant value like any other, in order, after the delivery that sent it.
    @Test func zipPairsAValueSentFromItsOwnDownstream() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<(Int, Int), Never>()
        recorder.onValue = { value in if value.0 == 1 { a.send(2) } }
        a.zip(b).subscribe(recorder)
        a.send(1)
        b.send(10)
        b.send(20)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 10))", "value((2, 20))"])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }
}
