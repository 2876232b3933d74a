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

@Suite struct MulticastTests {
    @Test func nothingFlowsUntilConnect() {
        let subject = PassthroughSubject<Int, TestError>()
        let multicast = subject.multicast { PassthroughSubject<Int, TestError>() }
        let recorder = Recorder<Int, TestError>()
        multicast.subscribe(recorder)
        subject.send(1)
        let connection = multicast.connect()
        subject.send(2)
        connection.cancel()
        subject.send(3)
        #expect(recorder.events == [.subscription, .value(2)])
        recorder.detachIfRunning()
    }

    @Test func givenSubjectReceivesUpstreamCompletion() {
        let through = CurrentValueSubject<Int, TestError>(0)
        let recorder = Recorder<Int, TestError>()
        let multicast = [1, 2].publisher.setFailureTypeForTest(TestError.self).multicast(subject: through)
        multicast.subscribe(recorder)
        let connection = multicast.connect()
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2), .finished])
        connection.cancel()
    }

    @Test func autoconnectStartsWithTheFirstSubscriber() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let auto = subject.logRequests(to: log).multicast { PassthroughSubject<Int, TestError>() }.autoconnect()
        #expect(log.entries.isEmpty)
        let recorder = Recorder<Int, TestError>()
        auto.subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(log.entries == ["request unlimited", "cancel"])
    }
}

@Suite struct MakeConnectableTests {
    @Test func valuesFlowOnlyWhileConnected() {
        let subject = PassthroughSubject<Int, Never>()
        let connectable = subject.makeConnectable()
        let first = Recorder<Int, Never>()
        let second = Recorder<Int, Never>(initialDemand: .max(1))
        connectable.subscribe(first)
        connectable.subscribe(second)
        subject.send(1)
        let connection = connectable.connect()
        subject.send(2)
        subject.send(3)
        connection.cancel()
        subject.send(4)
        #expect(first.values == [2, 3])
        #expect(second.values == [2])
        first.detachIfRunning()
        second.detachIfRunning()
    }

    @Test func completionReachesSubscribers() {
        let connectable = [1, 2].publisher.makeConnectable()
        let recorder = Recorder<Int, Never>()
        connectable.subscribe(recorder)
        let connection = connectable.connect()
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
        connection.cancel()
    }
}

@Suite struct TimerPublisherTests {
    @Test func ticksEveryIntervalWithTheSchedulersTime() {
        let scheduler = TestScheduler()
        let recorder = Recorder<MonotonicInstant, Never>()
        let timer = Publishers.Timer(every: .nanoseconds(10), scheduler: scheduler).autoconnect()
        timer.subscribe(recorder)
        scheduler.advance(by: .nanoseconds(35))
        #expect(recorder.values.map(\.nanoseconds) == [10, 20, 30])
        recorder.cancel()
        scheduler.advance(by: .nanoseconds(35))
        #expect(recorder.values.map(\.nanoseconds) == [10, 20, 30])
    }

    @Test func connectableTimerStartsAtConnectAndStopsAtCancel() {
        let scheduler = TestScheduler()
        let recorder = Recorder<MonotonicInstant, Never>()
        let timer = Publishers.Timer(every: .nanoseconds(10), scheduler: scheduler)
        timer.subscribe(recorder)
        scheduler.advance(by: .nanoseconds(25))
        #expect(recorder.values.isEmpty)
        let connection = timer.connect()
        scheduler.advance(by: .nanoseconds(25))
        connection.cancel()
        scheduler.advance(by: .nanoseconds(25))
        #expect(recorder.values.map(\.nanoseconds) == [35, 45])
        #expect(recorder.events.count == 3)  // subscription + 2 values, never a completion
        recorder.detachIfRunning()
    }

    @Test func subscribersWithoutDemandMissTicks() {
        let scheduler = TestScheduler()
        let recorder = Recorder<MonotonicInstant, Never>(initialDemand: .max(2))
        let timer = Publishers.Timer(every: .nanoseconds(10), scheduler: scheduler).autoconnect()
        timer.subscribe(recorder)
        scheduler.advance(by: .nanoseconds(30))
        recorder.request(.max(1))
        scheduler.advance(by: .nanoseconds(10))
        #expect(recorder.values.map(\.nanoseconds) == [10, 20, 40])
        recorder.detachIfRunning()
    }
}
