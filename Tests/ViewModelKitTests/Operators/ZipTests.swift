import Synchronization
import Testing
import ViewModelKit

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

    @Test func zipWithTransform() {
        let recorder = Recorder<String, Never>()
        [1, 2, 3].publisher.zip(["a", "b"].publisher, [true, false].publisher) { "\($0)\($1)\($2)" }
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .value("1atrue"), .value("2bfalse"), .finished])
    }
}

/// `zip`'s completion and demand rules against what OpenCombine's `ZipTests` record of Apple's
/// Combine (that suite runs against Combine with `OPENCOMBINE_COMPATIBILITY_TEST`); one test per
/// case of theirs, named after it. Where we differ on purpose (docs/COMBINE-API.md) the test
/// says so.
@Suite struct ZipCompatibilityTests {
    /// `arity` hand-driven inputs zipped by summing, subscribed by `recorder`.
    private func summing(_ arity: Int, into recorder: Recorder<Int, TestError>) -> [ManualPublisher<Int, TestError>] {
        let inputs = (0..<arity).map { _ in ManualPublisher<Int, TestError>() }
        switch arity {
        case 2: inputs[0].zip(inputs[1]) { $0 + $1 }.subscribe(recorder)
        case 3: inputs[0].zip(inputs[1], inputs[2]) { $0 + $1 + $2 }.subscribe(recorder)
        default: inputs[0].zip(inputs[1], inputs[2], inputs[3]) { $0 + $1 + $2 + $3 }.subscribe(recorder)
        }
        return inputs
    }

    /// testImmediateFinishWhenOneChildFinishesWithNoSurplus: an input finishing with nothing
    /// buffered finishes the zip at once and cancels the other inputs.
    @Test(arguments: 2...4)
    func immediateFinishWhenOneChildFinishesWithNoSurplus(arity: Int) {
        for finishing in 0..<arity {
            let recorder = Recorder<Int, TestError>()
            let inputs = summing(arity, into: recorder)
            inputs[finishing].send(completion: .finished)
            #expect(recorder.events == [.subscription, .finished])
            for (index, input) in inputs.enumerated() {
                let expected = index == finishing ? ["request unlimited"] : ["request unlimited", "cancel"]
                #expect(input.log.entries == expected)
            }
        }
    }

    /// testDelayedFinishWhenOneChildFinishesWithSurplus: an input finishing with a value
    /// buffered keeps the zip open until every other input has finished; another input
    /// finishing ends it at once (no tuple can form).
    @Test(arguments: 2...4)
    func delayedFinishWhenOneChildFinishesWithSurplus(arity: Int) {
        for sending in 0..<arity {
            for finishing in 0..<arity {
                let recorder = Recorder<Int, TestError>()
                let inputs = summing(arity, into: recorder)
                #expect(inputs[sending].send(666) == .none)
                inputs[finishing].send(completion: .finished)
                if sending == finishing {
                    #expect(recorder.events == [.subscription])
                    for (index, input) in inputs.enumerated() where index != finishing {
                        input.send(completion: .finished)
                    }
                }
                #expect(recorder.events == [.subscription, .finished])
            }
        }
    }

    /// testZipCompletesOnlyAfterAllChildrenComplete: once the finished input's buffered values
    /// are all used, the zip finishes without waiting for the other input.
    @Test func completesWhenTheFinishedInputsValuesAreUsed() {
        let recorder = Recorder<Int, TestError>()
        let inputs = summing(2, into: recorder)
        for value in [100, 200, 300] { #expect(inputs[0].send(value) == .none) }
        #expect(inputs[1].send(1) == .none)
        inputs[0].send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(101)])
        #expect(inputs[1].send(2) == .none)
        #expect(inputs[1].send(3) == .none)
        #expect(recorder.events == [.subscription, .value(101), .value(202), .value(303), .finished])
        #expect(inputs[1].log.entries == ["request unlimited", "cancel"])
    }

    /// testUpstreamExceedsDemand, where we differ on purpose: Combine delivers a tuple
    /// completed without demand anyway (202 here); we keep it until demand arrives, so the
    /// subscriber never gets more than it asked for.
    @Test func upstreamExceedsDemandWaitsForDemand() {
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        let inputs = summing(2, into: recorder)
        #expect(inputs[0].send(100) == .none)
        #expect(inputs[1].send(1) == .none)
        #expect(inputs[0].send(200) == .none)
        #expect(inputs[0].send(300) == .none)
        #expect(inputs[1].send(2) == .none)
        #expect(recorder.events == [.subscription, .value(101)])  // Combine: also 202
        #expect(inputs[1].send(3) == .none)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(101), .value(202)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(101), .value(202), .value(303)])
        recorder.detach()
    }
}
