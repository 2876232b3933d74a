import Testing
import ViewModelKit

/// What subscribers and publishers let go of when a stream ends, as in
/// Combine. A leak here is a leak of every view model a closure captures.
@Suite struct LifetimeSemanticsTests {
    final class Tracked {}

    @Test func sinkReleasesItsClosuresWhenCancelled() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTracked: Tracked?
        var seen = 0
        let sink: Subscribers.Sink<Int, Never>
        do {
            let tracked = Tracked()
            weakTracked = tracked
            sink = Subscribers.Sink(
                receiveCompletion: { _ in withExtendedLifetime(tracked) {} },
                receiveValue: { _ in withExtendedLifetime(tracked) { seen += 1 } })
        }
        subject.subscribe(sink)
        subject.send(1)
        #expect(weakTracked != nil)
        sink.cancel()
        #expect(weakTracked == nil)  // the sink itself is still alive here
        sink.receiveValue(2)  // a no-op once ended
        #expect(seen == 1)
        withExtendedLifetime(sink) {}
    }

    @Test func sinkReleasesItsClosuresWhenItCompletes() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTracked: Tracked?
        var completions = 0
        let sink: Subscribers.Sink<Int, Never>
        do {
            let tracked = Tracked()
            weakTracked = tracked
            sink = Subscribers.Sink(
                receiveCompletion: { _ in withExtendedLifetime(tracked) { completions += 1 } },
                receiveValue: { _ in withExtendedLifetime(tracked) {} })
        }
        subject.subscribe(sink)
        subject.send(completion: .finished)
        #expect(completions == 1)
        #expect(weakTracked == nil)
        withExtendedLifetime(sink) {}
    }

    @Test func assignReleasesItsObjectWhenCancelledOrCompleted() {
        final class Target { var value = 0 }
        let subject = PassthroughSubject<Int, Never>()
        weak var weakFirst: Target?
        weak var weakSecond: Target?
        let first: Subscribers.Assign<Target, Int>
        let second: Subscribers.Assign<Target, Int>
        do {
            let a = Target()
            let b = Target()
            weakFirst = a
            weakSecond = b
            first = Subscribers.Assign(object: a, keyPath: \.value)
            second = Subscribers.Assign(object: b, keyPath: \.value)
        }
        subject.subscribe(first)
        subject.subscribe(second)
        subject.send(3)
        #expect(weakFirst?.value == 3)
        first.cancel()
        #expect(weakFirst == nil)
        #expect(weakSecond?.value == 3)
        subject.send(completion: .finished)
        #expect(weakSecond == nil)
        withExtendedLifetime((first, second)) {}
    }

    /// A subscriber that keeps its subscription (as many do) and nothing else.
    private func keepingSubscriber<T>(_ kept: @escaping (Subscription) -> Void) -> AnySubscriber<T, Never> {
        AnySubscriber(
            receiveSubscription: {
                kept($0)
                $0.request(.unlimited)
            },
            receiveValue: { _ in .none },
            receiveCompletion: { _ in })
    }

    @Test func futureSubscriptionReleasesTheResultOnceDelivered() {
        weak var weakValue: Tracked?
        var kept: Subscription?
        do {
            let value = Tracked()
            weakValue = value
            let future = Future<Tracked, Never> { $0(.success(value)) }
            future.subscribe(keepingSubscriber { kept = $0 })
        }
        #expect(kept != nil)
        #expect(weakValue == nil)  // the future is gone; its delivered subscription holds nothing
    }

    @Test func aCancelledFutureSubscriptionIsForgottenByTheFuture() {
        var promise: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { promise = $0 }
        weak var weakSubscription: AnyObject?
        do {
            var kept: Subscription?
            future.subscribe(keepingSubscriber { kept = $0 })
            weakSubscription = kept as AnyObject?
            #expect(weakSubscription != nil)
            kept?.cancel()
        }
        #expect(weakSubscription == nil)
        promise?(.success(1))
        withExtendedLifetime(future) {}
    }
}

@Suite struct MulticastLifetimeTests {
    /// Combine's subject-subscriber holds its subject weakly: a connection does not keep the
    /// subject (nor what its subscribers captured) alive.
    @Test func aConnectedMulticastDoesNotKeepItsSubjectAlive() {
        let log = DemandLog()
        let upstream = PassthroughSubject<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var connection: Cancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let multicast = upstream.logRequests(to: log).multicast(subject: subject)
            let recorder = Recorder<Int, Never>()
            multicast.subscribe(recorder)
            connection = multicast.connect()
            upstream.send(1)
            #expect(recorder.values == [1])
            recorder.cancel()
        }
        #expect(weakSubject == nil)
        upstream.send(2)  // nobody to deliver to: the upstream is cancelled
        #expect(log.entries == ["request unlimited", "cancel"])
        withExtendedLifetime(connection) {}
    }
}
