import Testing
import ViewModelKit
import ViewModelKitSchedulers

@Suite struct ShareTests {
    @Test func oneUpstreamSubscriptionForAllSubscribers() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriptions = Counter()
        let shared = Deferred { () -> PassthroughSubject<Int, TestError> in
            _ = subscriptions.next()
            return subject
        }.share()
        let first = Recorder<Int, TestError>()
        let second = Recorder<Int, TestError>()
        shared.subscribe(first)
        subject.send(1)
        shared.subscribe(second)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriptions.value == 1)
        #expect(first.events == [.subscription, .value(1), .value(2), .finished])
        #expect(second.events == [.subscription, .value(2), .finished])
    }

    @Test func failureReachesEverySubscriber() {
        let subject = PassthroughSubject<Int, TestError>()
        let shared = subject.share()
        let first = Recorder<Int, TestError>()
        let second = Recorder<Int, TestError>()
        shared.subscribe(first)
        shared.subscribe(second)
        subject.send(completion: .failure(TestError("s")))
        #expect(first.events == [.subscription, .failure(TestError("s"))])
        #expect(second.events == [.subscription, .failure(TestError("s"))])
    }

    @Test func lastCancelDisconnectsAndALaterSubscriberReconnects() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let shared = subject.logRequests(to: log).share()
        let first = Recorder<Int, TestError>()
        let second = Recorder<Int, TestError>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        subject.send(1)
        #expect(log.entries == ["request unlimited"])
        second.cancel()
        #expect(log.entries == ["request unlimited", "cancel"])
        subject.send(2)
        let third = Recorder<Int, TestError>()
        shared.subscribe(third)
        subject.send(3)
        #expect(first.events == [.subscription])
        #expect(second.events == [.subscription, .value(1)])
        #expect(third.events == [.subscription, .value(3)])
        #expect(log.entries == ["request unlimited", "cancel", "request unlimited"])
        first.detachIfRunning()
        second.detachIfRunning()
        third.detachIfRunning()
    }

    @Test func eachSubscriberKeepsItsOwnDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let shared = subject.share()
        let limited = Recorder<Int, TestError>(initialDemand: .max(1))
        let unlimited = Recorder<Int, TestError>()
        shared.subscribe(limited)
        shared.subscribe(unlimited)
        subject.send(1)
        subject.send(2)
        #expect(limited.values == [1])
        #expect(unlimited.values == [1, 2])
        #expect(shared == shared)
        limited.detachIfRunning()
        unlimited.detachIfRunning()
    }
}
