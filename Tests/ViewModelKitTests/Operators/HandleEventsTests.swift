import Testing

@testable import ViewModelKit

/// Tests of `Publishers.HandleEvents` and the operator that returns it.
@Suite struct HandleEventsTests {
    @Test func handleEventsCallsHooksBeforeEachEvent() {
        let upstream = ManualPublisher<Int, Never>()
        var log: [String] = []
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        recorder.onValue = { log.append("downstream \($0)") }
        upstream.handleEvents(
            receiveSubscription: { _ in log.append("subscription") },
            receiveOutput: { log.append("output \($0)") },
            receiveCompletion: { log.append("completion \($0)") },
            receiveCancel: { log.append("cancel") },
            receiveRequest: { log.append("request \($0)") }
        ).subscribe(recorder)
        upstream.send(5)
        recorder.cancel()
        recorder.cancel()
        #expect(log == ["subscription", "request max(1)", "output 5", "downstream 5", "request max(1)", "cancel"])
        #expect(upstream.log.entries == ["request max(1)", "cancel"])
    }

    @Test func handleEventsCompletion() {
        var log: [String] = []
        let recorder = Recorder<Int, Never>()
        Just(1).handleEvents(receiveCompletion: { _ in log.append("completion") }).subscribe(recorder)
        #expect(log == ["completion"])
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }
}

/// `handleEvents` at the protocol's edges, as Combine was recorded to behave (OpenCombine's
/// `HandleEventsTests`, run against Combine): every value and completion reaches the downstream,
/// whatever the upstream's state; the hooks run only until the first completion or the cancel;
/// each subscription runs `receiveSubscription` while the hooks live and only the first is kept.
@Suite struct HandleEventsProtocolEdgeTests {
    /// A misbehaving upstream, the subscription it hands over, the hooks' log and a recorder.
    final class Rig {
        let upstream = ViolatingPublisher<Int, TestError>()
        let first = RecordingSubscription()
        let recorder: Recorder<Int, TestError>
        var hooks: [String] = []

        init(initialDemand: Subscribers.Demand?, demandPerValue: Subscribers.Demand) {
            recorder = Recorder(initialDemand: initialDemand, demandPerValue: demandPerValue)
            upstream.handleEvents(
                receiveSubscription: { [unowned self] in
                    hooks.append(($0 as AnyObject) === first ? "subscription first" : "subscription other")
                },
                receiveOutput: { [unowned self] in hooks.append("output \($0)") },
                receiveCompletion: { [unowned self] in hooks.append("completion \($0)") },
                receiveCancel: { [unowned self] in hooks.append("cancel") },
                receiveRequest: { [unowned self] in hooks.append("request \($0)") }
            ).subscribe(recorder)
        }

        var events: [String] { rendered(recorder.events) }

        func end() {
            recorder.detach()
            upstream.forget()
        }
    }

    @Test func completionsAndValuesAfterTheFirstCompletionStillReachTheDownstream() {
        let rig = Rig(initialDemand: nil, demandPerValue: .max(3))
        rig.upstream.send(subscription: rig.first)
        #expect(rig.upstream.send(1) == .max(3))
        rig.upstream.send(completion: .finished)
        rig.upstream.send(completion: .failure(TestError()))
        rig.upstream.send(completion: .finished)
        #expect(rig.upstream.send(2) == .max(3))
        #expect(rig.events == ["subscription", "value(1)", "finished", "failure(boom)", "finished", "value(2)"])
        #expect(rig.hooks == ["subscription first", "output 1", "request max(3)", "completion finished"])
        #expect(rig.first.history == [])
        rig.end()
    }

    @Test func afterACancelValuesAndCompletionsPassButRequestsAndHooksStop() {
        let rig = Rig(initialDemand: .max(2), demandPerValue: .max(5))
        rig.upstream.send(subscription: rig.first)
        rig.recorder.cancel()
        rig.recorder.request(.max(1))
        rig.recorder.cancel()
        #expect(rig.upstream.send(1) == .max(5))
        rig.upstream.send(completion: .finished)
        rig.upstream.send(completion: .failure(TestError()))
        #expect(rig.events == ["subscription", "value(1)", "finished", "failure(boom)"])
        #expect(rig.first.history == [.request(.max(2)), .cancel])
        #expect(rig.hooks == ["subscription first", "request max(2)", "cancel"])
        rig.end()
    }

    @Test func everySubscriptionRunsTheHookAndOnlyTheFirstIsKept() {
        let rig = Rig(initialDemand: nil, demandPerValue: .none)
        let second = RecordingSubscription()
        let third = RecordingSubscription()
        rig.upstream.send(subscription: rig.first)
        rig.upstream.send(subscription: second)
        #expect(second.history == [.cancel])
        rig.upstream.send(subscription: rig.first)
        #expect(rig.first.history == [.cancel])
        rig.recorder.cancel()
        #expect(rig.first.history == [.cancel, .cancel])
        rig.upstream.send(subscription: third)
        #expect(third.history == [.cancel])
        #expect(rig.hooks == ["subscription first", "subscription other", "subscription first", "cancel"])
        #expect(rig.events == ["subscription"])
        rig.end()
    }

    @Test func aValueOrACompletionBeforeTheSubscriptionIsPassedOnWithItsHooks() {
        let early = Rig(initialDemand: nil, demandPerValue: .max(42))
        #expect(early.upstream.send(144) == .max(42))
        #expect(early.events == ["value(144)"])
        #expect(early.hooks == ["output 144", "request max(42)"])
        early.end()

        let finished = Rig(initialDemand: nil, demandPerValue: .none)
        finished.upstream.send(completion: .finished)
        #expect(finished.events == ["finished"])
        #expect(finished.hooks == ["completion finished"])
        // The stream is over: a subscription arriving now is cancelled, without the hook.
        finished.upstream.send(subscription: finished.first)
        #expect(finished.first.history == [.cancel])
        #expect(finished.hooks == ["completion finished"])
        finished.end()
    }

    @Test func demandAskedBeforeTheSubscriptionIsRequestedWhenItArrives() throws {
        let upstream = CapturingPublisher()
        var hooks: [String] = []
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream.handleEvents(receiveRequest: { hooks.append("request \($0)") }).subscribe(recorder)
        // The operator's subscriber is also its subscription (as Combine's): ask through it
        // before any upstream subscription exists.
        let early = try #require(upstream.subscriber as? Subscription)
        early.request(.max(1))
        early.request(.max(2))
        #expect(hooks == ["request max(1)", "request max(2)"])
        let first = RecordingSubscription()
        try #require(upstream.subscriber as? HandleEventsSubscriber).receive(subscription: first)
        #expect(first.history == [.request(.max(3))])
        #expect(recorder.events == [.subscription])
        recorder.detach()
    }
}

private typealias HandleEventsSubscriber = Publishers.HandleEvents<CapturingPublisher>.Inner<Recorder<Int, Never>>

/// A publisher that only keeps its subscriber, as it was given (not type-erased).
private final class CapturingPublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never
    var subscriber: Any?
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = subscriber
    }
}
