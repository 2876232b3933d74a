import Synchronization
import Testing
import ViewModelKit

/// The merge engine (`merge`, `flatMap`, `switchToLatest`) absorbs a misbehaving source's
/// protocol violations as Combine's merging operators do: what the downstream sees equals the
/// well-behaved run, a junk subscription is cancelled, and nothing reaches a source after the end.
@Suite struct MergeEngineViolationTests {
    @Test func mergeDropsAChildsValueBeforeItsSubscription() {
        let rogue = MisbehavingSource<Int>()
        let other = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        rogue.merge(with: other).subscribe(recorder)
        #expect(rogue.send(1) == Subscribers.Demand.none)
        let subscription = SubscriptionLog()
        rogue.send(subscription: subscription)
        #expect(rogue.send(2) == Subscribers.Demand.none)
        other.send(3)
        other.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2), .value(3)])
        rogue.finish()
        #expect(recorder.events == [.subscription, .value(2), .value(3), .finished])
        #expect(subscription.calls == ["request unlimited"])
    }

    /// A completion before the subscription is dropped, and the child counts as ended: its
    /// subscription is cancelled when it comes, and the merge, like one whose child never
    /// subscribed, does not finish.
    @Test func mergeCancelsASubscriptionAfterAChildsCompletionBeforeIt() {
        let rogue = MisbehavingSource<Int>()
        let other = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        rogue.merge(with: other).subscribe(recorder)
        rogue.finish()
        let subscription = SubscriptionLog()
        rogue.send(subscription: subscription)
        #expect(rogue.send(1) == Subscribers.Demand.none)
        other.send(2)
        other.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(2)])
        #expect(subscription.calls == ["cancel"])
    }

    @Test func mergeCancelsAChildsSecondSubscription() {
        let rogue = MisbehavingSource<Int>()
        let recorder = Recorder<Int, Never>()
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        rogue.merge(with: Empty<Int, Never>()).subscribe(recorder)
        let first = SubscriptionLog()
        let second = SubscriptionLog()
        rogue.send(subscription: first)
        rogue.send(subscription: second)
        _ = rogue.send(1)
        #expect(first.calls == ["request unlimited"])
        #expect(second.calls == ["cancel"])
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func mergeDropsAChildsEventsAfterItsCompletion() {
        let rogue = MisbehavingSource<Int>()
        let other = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        rogue.merge(with: other).subscribe(recorder)
        rogue.send(subscription: SubscriptionLog())
        _ = rogue.send(1)
        rogue.finish()
        #expect(rogue.send(2) == Subscribers.Demand.none)
        rogue.finish()
        other.send(3)
        #expect(recorder.events == [.subscription, .value(1), .value(3)])
        other.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(3), .finished])
    }

    @Test func valuesBeyondAChildsDemandWaitForTheDownstreamsDemand() {
        let rogue = MisbehavingSource<Int>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        rogue.merge(with: Empty<Int, Never>(completeImmediately: false)).subscribe(recorder)
        let subscription = SubscriptionLog()
        rogue.send(subscription: subscription)
        for value in 1...3 { #expect(rogue.send(value) == Subscribers.Demand.none) }
        #expect(recorder.values == [1])  // never beyond the downstream's demand
        recorder.request(.max(5))
        #expect(recorder.values == [1, 2, 3])
        #expect(subscription.calls.first == "request max(1)")
    }

    @Test func nothingReachesAChildAfterTheDownstreamCancelled() {
        let rogue = MisbehavingSource<Int>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        rogue.merge(with: Empty<Int, Never>(completeImmediately: false)).subscribe(recorder)
        let subscription = SubscriptionLog()
        rogue.send(subscription: subscription)
        recorder.cancel()
        recorder.request(.max(3))
        #expect(rogue.send(1) == Subscribers.Demand.none)
        rogue.finish()
        #expect(subscription.calls == ["request max(1)", "cancel"])
        #expect(recorder.events == [.subscription])
    }

    @Test func flatMapDropsTheOutersValuesOutsideItsSubscriptionWithoutTransformingThem() {
        let rogue = MisbehavingSource<Int>()
        let recorder = Recorder<Int, Never>()
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        let transformed = Mutex<[Int]>([])
        rogue.flatMap { value in
            transformed.withLock { $0.append(value) }
            return Just(value * 10)
        }.subscribe(recorder)
        #expect(rogue.send(1) == Subscribers.Demand.none)
        let first = SubscriptionLog()
        let second = SubscriptionLog()
        rogue.send(subscription: first)
        rogue.send(subscription: second)
        _ = rogue.send(2)
        rogue.finish()
        _ = rogue.send(3)
        rogue.finish()
        #expect(recorder.events == [.subscription, .value(20), .finished])
        #expect(transformed.withLock { $0 } == [2])
        #expect(first.calls == ["request unlimited"])
        #expect(second.calls == ["cancel"])
    }

    @Test func flatMapCancelsTheOutersSubscriptionAfterACompletionBeforeIt() {
        let rogue = MisbehavingSource<Int>()
        let recorder = Recorder<Int, Never>()
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        rogue.flatMap { Just($0) }.subscribe(recorder)
        rogue.finish()
        let subscription = SubscriptionLog()
        rogue.send(subscription: subscription)
        #expect(rogue.send(1) == Subscribers.Demand.none)
        #expect(recorder.events == [])
        #expect(subscription.calls == ["cancel"])
    }

    @Test func switchToLatestDropsTheOutersEventsOutsideItsSubscription() {
        let rogue = MisbehavingSource<Just<Int>>()
        let recorder = Recorder<Int, Never>()
        defer { recorder.cancel() }  // no subscriber<->subscription cycle left for LeakSanitizer
        rogue.switchToLatest().subscribe(recorder)
        _ = rogue.send(Just(1))
        let first = SubscriptionLog()
        let second = SubscriptionLog()
        rogue.send(subscription: first)
        rogue.send(subscription: second)
        _ = rogue.send(Just(2))
        rogue.finish()
        _ = rogue.send(Just(3))
        #expect(recorder.events == [.subscription, .value(2), .finished])
        #expect(first.calls == ["request unlimited"])
        #expect(second.calls == ["cancel"])
    }
}

/// A source that sends whatever the test says, when it says, protocol or not.
private final class MisbehavingSource<Output>: Publisher, @unchecked Sendable {
    typealias Failure = Never
    private var subscriber: AnySubscriber<Output, Never>?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        self.subscriber = AnySubscriber(subscriber)
    }

    func send(subscription: Subscription) { subscriber?.receive(subscription: subscription) }
    func send(_ value: Output) -> Subscribers.Demand? { subscriber?.receive(value) }
    func finish() { subscriber?.receive(completion: .finished) }
}

/// A subscription that records the calls it gets.
private final class SubscriptionLog: Subscription, @unchecked Sendable {
    private let log = Mutex<[String]>([])
    var calls: [String] { log.withLock { $0 } }
    func request(_ demand: Subscribers.Demand) {
        let text = demand == .unlimited ? "request unlimited" : "request max(\(demand.max ?? 0))"
        log.withLock { $0.append(text) }
    }
    func cancel() { log.withLock { $0.append("cancel") } }
}
