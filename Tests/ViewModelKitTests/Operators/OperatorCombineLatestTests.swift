import Testing
import ViewModelKit

@Suite struct CombineLatestTests {
    @Test func emitsOnlyAfterEveryInputHasEmitted() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.combineLatest(b).subscribe(recorder)

        a.send(1)
        a.send(2)
        #expect(rendered(recorder.events) == ["subscription"])
        b.send(10)
        a.send(3)
        b.send(20)
        a.send(completion: .finished)
        b.send(30)
        #expect(
            rendered(recorder.events) == [
                "subscription", "value((2, 10))", "value((3, 10))", "value((3, 20))", "value((3, 30))",
            ])
        b.send(completion: .finished)
        #expect(rendered(recorder.events).last == "finished")
    }

    @Test func failsAsSoonAsOneInputFails() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.combineLatest(b).subscribe(recorder)
        a.send(1)
        b.send(completion: .failure(TestError("b")))
        a.send(2)
        #expect(rendered(recorder.events) == ["subscription", "failure(b)"])
    }

    @Test func anInputFinishingWithoutAValueDoesNotEndTheStreamEarly() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.combineLatest(b).subscribe(recorder)
        a.send(1)
        b.send(completion: .finished)
        a.send(2)
        #expect(rendered(recorder.events) == ["subscription"])
        a.send(completion: .finished)
        #expect(rendered(recorder.events) == ["subscription", "finished"])
    }

    @Test func cancelStopsAndCancelsInputs() {
        let log = DemandLog()
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.logRequests(to: log).combineLatest(b).subscribe(recorder)
        a.send(1)
        b.send(1)
        recorder.cancel()
        a.send(2)
        b.send(completion: .finished)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 1))"])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    /// As Combine, recorded by OpenCombine's `CombineLatestTests.testUpstreamExceedsDemand`
    /// (run against Combine): combinations formed while there is no demand are dropped, so a
    /// later request delivers nothing until an input sends again.
    @Test func neverDeliversMoreThanRequestedAndDropsCombinationsFormedWithoutDemand() {
        let a = ManualPublisher<Int, TestError>()
        let b = ManualPublisher<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>(initialDemand: .max(1))
        a.combineLatest(b).subscribe(recorder)
        #expect(a.send(100) == .none)
        #expect(b.send(1) == .none)  // (100, 1) uses the only demand
        #expect(a.send(200) == .none)  // beyond the demand: dropped
        #expect(a.send(300) == .none)
        #expect(b.send(2) == .none)
        #expect(rendered(recorder.events) == ["subscription", "value((100, 1))"])
        #expect(b.send(3) == .none)
        recorder.request(.max(1))
        #expect(rendered(recorder.events) == ["subscription", "value((100, 1))"])
        #expect(a.send(400) == .none)  // (400, 3) against the new demand
        #expect(rendered(recorder.events) == ["subscription", "value((100, 1))", "value((400, 3))"])
        #expect(a.log.entries == ["request max(1)", "request max(1)"])
        #expect(b.log.entries == ["request max(1)", "request max(1)"])
        recorder.detach()
    }

    @Test func threeAndFourInputs() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<String, Never>()
        let c = PassthroughSubject<Bool, Never>()
        let d = PassthroughSubject<Double, Never>()
        let three = Recorder<(Int, String, Bool), Never>()
        let four = Recorder<(Int, String, Bool, Double), Never>()
        a.combineLatest(b, c).subscribe(three)
        a.combineLatest(b, c, d).subscribe(four)
        a.send(1)
        b.send("x")
        c.send(true)
        d.send(0.5)
        a.send(2)
        #expect(rendered(three.events) == ["subscription", "value((1, \"x\", true))", "value((2, \"x\", true))"])
        #expect(
            rendered(four.events) == ["subscription", "value((1, \"x\", true, 0.5))", "value((2, \"x\", true, 0.5))"])
        three.detachIfRunning()
        four.detachIfRunning()
    }
}

@Suite struct ZipTests {
    @Test func pairsValuesByPositionAndFinishesWhenAnInputIsExhausted() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        a.send(1)
        a.send(2)
        b.send(10)
        b.send(20)
        b.send(30)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 10))", "value((2, 20))"])
        a.send(completion: .finished)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 10))", "value((2, 20))", "finished"])
    }

    @Test func finishWaitsForBufferedValuesToBeUsed() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        a.send(1)
        a.send(completion: .finished)
        #expect(rendered(recorder.events) == ["subscription"])
        b.send(10)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 10))", "finished"])
    }

    @Test func failsAsSoonAsOneInputFails() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        a.send(1)
        b.send(completion: .failure(TestError("b")))
        #expect(rendered(recorder.events) == ["subscription", "failure(b)"])
    }

    @Test func cancelStopsAndCancelsInputs() {
        let log = DemandLog()
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<(Int, Int), TestError>()
        a.zip(b.logRequests(to: log)).subscribe(recorder)
        recorder.cancel()
        a.send(1)
        b.send(1)
        #expect(rendered(recorder.events) == ["subscription"])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func forwardsDownstreamDemandToEveryInput() {
        let logA = DemandLog()
        let logB = DemandLog()
        let recorder = Recorder<(Int, Int), Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.logRequests(to: logA).zip([10, 20, 30].publisher.logRequests(to: logB)).subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value((1, 10))", "value((2, 20))"])
        #expect(logA.entries == ["request max(2)"])
        #expect(logB.entries == ["request max(2)"])
        recorder.request(.max(1))
        #expect(
            rendered(recorder.events) == [
                "subscription", "value((1, 10))", "value((2, 20))", "value((3, 30))", "finished",
            ])
    }

    @Test func threeAndFourInputs() {
        let recorder3 = Recorder<(Int, Int, Int), Never>()
        [1, 2].publisher.zip([3, 4].publisher, [5].publisher).subscribe(recorder3)
        #expect(rendered(recorder3.events) == ["subscription", "value((1, 3, 5))", "finished"])
        let recorder4 = Recorder<(Int, Int, Int, Int), Never>()
        [1].publisher.zip([2].publisher, [3].publisher, [4].publisher).subscribe(recorder4)
        #expect(rendered(recorder4.events) == ["subscription", "value((1, 2, 3, 4))", "finished"])
    }
}
