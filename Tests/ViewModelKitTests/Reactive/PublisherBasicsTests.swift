import Testing
import ViewModelKit

@Suite struct SinkAndAssignTests {
    // Point 11: a token that is not stored cancels at once; a second cancel is harmless.
    @Test func unstoredCancellableCancelsImmediately() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        _ = subject.sink { seen.append($0) }
        subject.send(1)
        #expect(seen == [])

        let token = subject.sink { seen.append($0) }
        subject.send(2)
        token.cancel()
        token.cancel()
        subject.send(3)
        #expect(seen == [2])
    }

    @Test func storedCancellableKeepsSubscriptionAlive() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        var bag = Set<AnyCancellable>()
        subject.sink { seen.append($0) }.store(in: &bag)
        subject.send(1)
        bag.removeAll()
        subject.send(2)
        #expect(seen == [1])
    }

    @Test func sinkGetsCompletionOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        var log: [String] = []
        let token = subject.sink(
            receiveCompletion: { log.append("\($0)") },
            receiveValue: { log.append("v\($0)") })
        subject.send(1)
        subject.send(completion: .failure(TestError("x")))
        subject.send(2)
        #expect(log == ["v1", "failure(x)"])
        token.cancel()
    }

    @Test func sinkRequestsUnlimitedAndRejectsSecondSubscription() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let first = DemandLog()
        let second = DemandLog()
        sink.receive(subscription: LoggingSubscription(first))
        sink.receive(subscription: LoggingSubscription(second))
        sink.cancel()
        #expect(first.entries == ["request unlimited", "cancel"])
        #expect(second.entries == ["cancel"])
    }

    final class Owner {
        var tokens = Set<AnyCancellable>()
        var seen = 0
        let onDeinit: () -> Void
        init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    // Cancelling breaks a cycle owner -> token -> sink -> closure -> owner, as in Combine.
    @Test func cancellingStoredTokenBreaksCaptureCycle() {
        let subject = PassthroughSubject<Int, Never>()
        var released = false
        var owner: Owner? = Owner { released = true }
        subject.sink { [owner = owner!] in owner.seen += $0 }.store(in: &owner!.tokens)
        subject.send(2)
        #expect(owner!.seen == 2)
        for token in owner!.tokens { token.cancel() }
        owner = nil
        #expect(released)
    }

    final class Target {
        var value = 0
        var deinitCount: (() -> Void)?
        deinit { deinitCount?() }
    }

    // Point 4: assign(to:on:) holds its object strongly until cancel.
    @Test func assignHoldsObjectUntilCancel() {
        let subject = PassthroughSubject<Int, Never>()
        var released = 0
        var target: Target? = Target()
        target!.deinitCount = { released += 1 }
        let token = subject.assign(to: \.value, on: target!)
        weak let weakTarget = target
        target = nil
        #expect(released == 0)
        subject.send(7)
        #expect(weakTarget?.value == 7)
        token.cancel()
        #expect(released == 1)
        #expect(weakTarget == nil)
    }

    // Point 4: ... or until completion.
    @Test func assignReleasesObjectOnCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        var released = 0
        var target: Target? = Target()
        target!.deinitCount = { released += 1 }
        let token = subject.assign(to: \.value, on: target!)
        target = nil
        subject.send(3)
        #expect(released == 0)
        subject.send(completion: .finished)
        #expect(released == 1)
        withExtendedLifetime(token) {}
    }
}

@Suite struct ErasureTests {
    @Test func anyPublisherForwardsEverything() {
        let subject = PassthroughSubject<Int, TestError>()
        let erased = subject.eraseToAnyPublisher()
        let twice = erased.eraseToAnyPublisher()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        twice.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError())])
    }

    @Test func anySubscriberKeepsIdentityAndForwards() {
        let recorder = Recorder<Int, Never>()
        let erased = AnySubscriber(recorder)
        #expect(erased.combineIdentifier == recorder.combineIdentifier)
        Just(4).subscribe(erased)
        #expect(recorder.events == [.subscription, .value(4), .finished])
    }

    @Test func anySubscriberFromClosures() {
        var log: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                log.append("sub")
                $0.request(.max(1))
            },
            receiveValue: {
                log.append("v\($0)")
                return .none
            },
            receiveCompletion: { _ in log.append("done") })
        Just(1).subscribe(subscriber)
        #expect(log == ["sub", "v1", "done"])
    }

    @Test func anySubscriberWrappingSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.subscribe(recorder)
        Just(9).subscribe(AnySubscriber(subject))
        #expect(recorder.events == [.subscription, .value(9), .finished])
    }

    @Test func subscribeSubjectForwardsAndCancelsUpstream() {
        let upstream = PassthroughSubject<Int, Never>()
        let downstream = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        downstream.subscribe(recorder)
        let token = upstream.subscribe(downstream)
        upstream.send(1)
        token.cancel()
        upstream.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.detachIfRunning()
    }

    @Test func subscribeSubjectForwardsCompletion() {
        let downstream = CurrentValueSubject<Int, Never>(0)
        let recorder = Recorder<Int, Never>()
        downstream.subscribe(recorder)
        let token = Just(5).subscribe(downstream)
        #expect(recorder.events == [.subscription, .value(0), .value(5), .finished])
        #expect(downstream.value == 5)
        withExtendedLifetime(token) {}
    }
}

@Suite struct SimplePublisherTests {
    @Test func justWaitsForDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        Just(1).subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .finished])
    }

    @Test func justCancelledBeforeDemandSendsNothing() {
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        Just(1).subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
    }

    @Test func emptyAndFail() {
        let empty = Recorder<Int, TestError>(initialDemand: nil)
        Empty<Int, TestError>().subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
        let never = Recorder<Int, TestError>()
        Empty<Int, TestError>(completeImmediately: false).subscribe(never)
        #expect(never.events == [.subscription])
        let fail = Recorder<Int, TestError>(initialDemand: nil)
        Fail<Int, TestError>(error: TestError()).subscribe(fail)
        #expect(fail.events == [.subscription, .failure(TestError())])
    }

    @Test func deferredBuildsPerSubscriber() {
        var built = 0
        let deferred = Deferred { () -> Just<Int> in
            built += 1
            return Just(built)
        }
        #expect(built == 0)
        let a = Recorder<Int, Never>()
        let b = Recorder<Int, Never>()
        deferred.subscribe(a)
        deferred.subscribe(b)
        #expect(a.values == [1])
        #expect(b.values == [2])
    }

    @Test func recordReplaysOnDemand() {
        let record = Record<Int, TestError> { r in
            r.receive(1)
            r.receive(2)
            r.receive(completion: .failure(TestError()))
            r.receive(3)  // after completion: ignored
        }
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        record.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1)])
        recorder.request(.max(5))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .failure(TestError())])
    }

    @Test func recordCancelStops() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        recorder.onValue = { [unowned recorder] _ in recorder.cancel() }
        Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(recorder)
        recorder.request(.max(3))
        #expect(recorder.events == [.subscription, .value(1)])
    }
}

@Suite struct FutureTests {
    // Point 5: the closure runs once, eagerly, in init.
    @Test func runsClosureOnceEagerly() {
        var runs = 0
        let future = Future<Int, Never> { promise in
            runs += 1
            promise(.success(1))
        }
        #expect(runs == 1)
        let a = Recorder<Int, Never>()
        let b = Recorder<Int, Never>()
        future.subscribe(a)
        future.subscribe(b)
        #expect(runs == 1)
        #expect(a.events == [.subscription, .value(1), .finished])
        #expect(b.events == [.subscription, .value(1), .finished])
    }

    // Point 5: late subscribers get the stored result; a second promise is ignored.
    @Test func secondPromiseIgnoredAndLateSubscriberGetsStoredResult() {
        var fulfil: ((Result<Int, TestError>) -> Void)?
        let future = Future<Int, TestError> { fulfil = $0 }
        let early = Recorder<Int, TestError>()
        future.subscribe(early)
        #expect(early.events == [.subscription])
        fulfil?(.success(1))
        fulfil?(.success(2))
        fulfil?(.failure(TestError()))
        let late = Recorder<Int, TestError>()
        future.subscribe(late)
        #expect(early.events == [.subscription, .value(1), .finished])
        #expect(late.events == [.subscription, .value(1), .finished])
    }

    // Point 5: the value is withheld until there is demand.
    @Test func valueWithheldUntilDemand() {
        let future = Future<Int, Never> { $0(.success(7)) }
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        future.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func failureNeedsNoDemand() {
        let future = Future<Int, TestError> { $0(.failure(TestError())) }
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        future.subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError())])
    }

    @Test func cancelledSubscriberGetsNothing() {
        var fulfil: ((Result<Int, Never>) -> Void)?
        let future = Future<Int, Never> { fulfil = $0 }
        let recorder = Recorder<Int, Never>()
        future.subscribe(recorder)
        recorder.cancel()
        fulfil?(.success(1))
        #expect(recorder.events == [.subscription])
    }
}
