import Testing
import ViewModelKit

/// Tests of `Publishers.Output` and the operator that returns it.
@Suite struct OutputTests {
    @Test func prefixFinishesAndCancelsUpstream() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(5))
        upstream.prefix(2).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        #expect(upstream.log.entries == ["request max(5)", "cancel"])
    }

    @Test func prefixZeroFinishesAtOnce() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream.prefix(0).subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
        #expect(upstream.log.entries == ["cancel"])
    }

    @Test func prefixRespectsDemandAndPassesFailure() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        subject.prefix(3).subscribe(recorder)
        subject.send(1)
        subject.send(2)  // no demand
        recorder.request(.max(1))
        subject.send(3)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .value(3), .failure(TestError())])
    }

    @Test func outputAtIndex() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder<String, Never>(initialDemand: .max(1))
        upstream.output(at: 2).subscribe(recorder)
        #expect(upstream.send("a") == .max(1))
        #expect(upstream.send("b") == .max(1))
        upstream.send("c")
        upstream.send("d")
        #expect(recorder.events == [.subscription, .value("c"), .finished])
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
    }

    @Test func outputInRangeAndCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.output(in: 1...2).subscribe(recorder)
        for i in 0..<5 { subject.send(i) }
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])

        let other = Recorder<Int, Never>()
        subject.output(in: 1...).subscribe(other)
        subject.send(10)
        subject.send(11)
        other.cancel()
        subject.send(12)
        #expect(other.events == [.subscription, .value(11)])
    }
}
