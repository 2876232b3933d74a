import Foundation
import Synchronization
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

    final class WeakBox: @unchecked Sendable {
        weak var value: Box?
    }

    /// combineLatest's queue forms when inputs send from other threads during a delivery; a
    /// delivered combination is released at once, not when the whole queue empties.
    @Test func combineLatestReleasesADeliveredCombinationWhileOthersWait() {
        let live = LiveCount()
        // ManualPublisher: a subject would serialise the second thread's sends behind the
        // delivery in progress; the queue forms only when sends reach the operator meanwhile.
        let a = ManualPublisher<Box, Never>()
        let b = ManualPublisher<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let watched = WeakBox()
        let cancellable = a.combineLatest(b).sink { _ in
            entered.signal()
            proceed.wait()
        }
        b.send(0)
        let sender = Thread {
            a.send(Box(0, live))  // delivered on this thread, which then drains the queue
            done.signal()
        }
        sender.start()
        entered.wait()
        do {
            let one = Box(1, live)
            watched.value = one
            a.send(one)  // queued behind the delivery in progress
        }
        a.send(Box(2, live))
        a.send(Box(3, live))
        proceed.signal()  // (0) done; (1) is delivered next
        entered.wait()
        proceed.signal()  // (1) done and dropped by the sink; (2) is delivered next
        entered.wait()
        #expect(watched.value == nil)  // only the queue could still hold (1)
        proceed.signal()
        entered.wait()
        proceed.signal()
        done.wait()
        cancellable.cancel()
        #expect(live.value == 0)  // the latest values go with the subscription
    }

    @Test func combineLatestWithTransform() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let two = Recorder<Int, Never>()
        let four = Recorder<Int, Never>()
        a.combineLatest(b) { $0 + $1 }.subscribe(two)
        a.combineLatest(b, c, d) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.subscribe(four)
        a.send(1)
        b.send(2)
        c.send(3)
        d.send(4)
        a.send(5)
        #expect(two.values == [3, 7])
        #expect(four.values == [1234, 5234])
        two.detachIfRunning()
        four.detachIfRunning()
    }
}
