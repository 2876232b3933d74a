import Testing
import ViewModelKit

/// Tests of `Publishers.DropWhile` and the operator that returns it.
@Suite struct DropWhileTests {
    @Test func dropWhileStopsTestingAtTheFirstFalse() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        var tested: [Int] = []
        upstream.drop {
            tested.append($0)
            return $0 < 3
        }.subscribe(recorder)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .max(1))
        #expect(upstream.send(3) == .none)
        #expect(upstream.send(1) == .none)
        #expect(tested == [1, 2, 3])
        #expect(recorder.events == [.subscription, .value(3), .value(1)])
        #expect(upstream.log.entries == ["request max(2)"])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    @Test func tryDropWhileThrowCancelsAndFails() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, any Error>()
        upstream.tryDrop { value in
            if value == 2 { throw TestError("two") }
            return true
        }.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        #expect(rendered(recorder.events) == ["subscription", "failure(two)"])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }

    @Test func nothingIsDeliveredAfterTheSubscriberCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demandPerValue: .max(4))
        upstream.drop { $0 < 0 }.subscribe(recorder)
        #expect(upstream.send(1) == .max(4))
        recorder.cancel()
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }
}
