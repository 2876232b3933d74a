import Testing
import ViewModelKit

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
