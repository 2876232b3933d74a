import Testing
import ViewModelKit

/// `combineLatest`'s demand and completion rules, pinned to what OpenCombine's
/// `CombineLatestTests` record of Apple's Combine (that suite runs against Combine with
/// `OPENCOMBINE_COMPATIBILITY_TEST`); one test here per case of theirs, named after it.
@Suite struct CombineLatestCompatibilityTests {
    /// `arity` hand-driven inputs combined by summing, subscribed by `recorder`.
    private func summing(_ arity: Int, into recorder: Recorder<Int, TestError>) -> [ManualPublisher<Int, TestError>] {
        let inputs = (0..<arity).map { _ in ManualPublisher<Int, TestError>() }
        switch arity {
        case 2: inputs[0].combineLatest(inputs[1]) { $0 + $1 }.subscribe(recorder)
        case 3: inputs[0].combineLatest(inputs[1], inputs[2]) { $0 + $1 + $2 }.subscribe(recorder)
        default: inputs[0].combineLatest(inputs[1], inputs[2], inputs[3]) { $0 + $1 + $2 + $3 }.subscribe(recorder)
        }
        return inputs
    }

    /// testChildDemand: demand reaches every input as requested; values get `.none` back and
    /// cause no request of their own.
    @Test(arguments: [Subscribers.Demand.unlimited, .max(1)])
    func childDemand(initial: Subscribers.Demand) {
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        let inputs = summing(2, into: recorder)
        recorder.request(initial)
        #expect(inputs[0].send(1) == .none)
        #expect(inputs[1].send(1) == .none)
        #expect(recorder.events == [.subscription, .value(2)])
        recorder.request(.max(2))
        for input in inputs { #expect(input.log.entries == ["request \(initial)", "request max(2)"]) }
        recorder.detach()
    }

    /// testDownstreamDemandRequestedWhileSendingValue: a request made inside `receive(_:)` goes
    /// to every input as a request; the value that triggered it still gets `.none`.
    @Test(arguments: [Subscribers.Demand.unlimited, .max(10)])
    func downstreamDemandRequestedWhileSendingValue(initial: Subscribers.Demand) {
        let recorder = Recorder<Int, TestError>(initialDemand: initial)
        recorder.onValue = { [unowned recorder] _ in recorder.request(.max(666)) }
        let inputs = summing(2, into: recorder)
        #expect(inputs[0].send(1) == .none)
        #expect(inputs[1].send(1) == .none)
        #expect(recorder.events == [.subscription, .value(2)])
        for input in inputs { #expect(input.log.entries == ["request \(initial)", "request max(666)"]) }
        recorder.detach()
    }

    /// testImmediateFinishWhenOneChildFinishesWithNoSurplus: an input finishing without a value
    /// ends nothing and cancels nothing.
    @Test(arguments: 2...4)
    func immediateFinishWhenOneChildFinishesWithNoSurplus(arity: Int) {
        for finishing in 0..<arity {
            let recorder = Recorder<Int, TestError>()
            let inputs = summing(arity, into: recorder)
            inputs[finishing].send(completion: .finished)
            #expect(recorder.events == [.subscription])
            for input in inputs { #expect(input.log.entries == ["request unlimited"]) }
            recorder.detach()
        }
    }

    /// testDelayedFinishWhenOneChildFinishesWithSurplus: after one input's value, an input
    /// finishing ends nothing; the stream finishes once every input has.
    @Test(arguments: 2...4)
    func delayedFinishWhenOneChildFinishesWithSurplus(arity: Int) {
        for sending in 0..<arity {
            for finishing in 0..<arity {
                let recorder = Recorder<Int, TestError>()
                let inputs = summing(arity, into: recorder)
                #expect(inputs[sending].send(666) == .none)
                inputs[finishing].send(completion: .finished)
                #expect(recorder.events == [.subscription])
                for (index, input) in inputs.enumerated() where index != finishing {
                    input.send(completion: .finished)
                }
                #expect(recorder.events == [.subscription, .finished])
            }
        }
    }

    /// testAValueAfterAChildFinishedWithoutSurplus: a value after its input finished is
    /// ignored; the stream finishes when the other input does.
    @Test func aValueAfterAChildFinishedWithoutSurplus() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.combineLatest(b) { $0 + $1 }.subscribe(recorder)
        a.send(completion: .finished)
        a.send(200)
        b.send(1)
        #expect(recorder.events == [.subscription])
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .finished])
    }

    /// testBCancelledAfterAFailed: a failure is delivered at once and the other input is
    /// cancelled; the failed input is not.
    @Test func bCancelledAfterAFailed() {
        let recorder = Recorder<Int, TestError>()
        let inputs = summing(2, into: recorder)
        inputs[0].send(completion: .failure(TestError("a")))
        #expect(recorder.events == [.subscription, .failure(TestError("a"))])
        #expect(inputs[0].log.entries == ["request unlimited"])
        #expect(inputs[1].log.entries == ["request unlimited", "cancel"])
    }
}
