import Foundation
import Testing
import ViewModelKit

@Suite struct CatchTests {
    @Test func replacesTheFailureWithTheHandlersPublisher() {
        let subject = PassthroughSubject<Int, TestError>()
        var caught: [TestError] = []
        let recorder = Recorder<Int, Never>()
        subject.catch { error -> Publishers.Sequence<[Int], Never> in
            caught.append(error)
            return [7, 8].publisher
        }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("x")))
        #expect(recorder.events == [.subscription, .value(1), .value(7), .value(8), .finished])
        #expect(caught == [TestError("x")])
    }

    @Test func finishingUpstreamFinishesWithoutTheHandler() {
        var calls = 0
        let recorder = Recorder<Int, Never>()
        [1].publisher.setFailureTypeForTest(TestError.self).catch { _ -> Publishers.Sequence<[Int], Never> in
            calls += 1
            return [9].publisher
        }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .finished])
        #expect(calls == 0)
    }

    @Test func replacementGetsTheRemainingDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        subject.catch { _ in [7, 8, 9].publisher }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1), .value(7)])
        recorder.request(.max(5))
        #expect(recorder.events == [.subscription, .value(1), .value(7), .value(8), .value(9), .finished])
    }

    @Test func cancelBeforeFailureNeverCallsTheHandler() {
        let subject = PassthroughSubject<Int, TestError>()
        var calls = 0
        let recorder = Recorder<Int, Never>()
        subject.catch { _ -> Publishers.Sequence<[Int], Never> in
            calls += 1
            return [7].publisher
        }.subscribe(recorder)
        recorder.cancel()
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription])
        #expect(calls == 0)
    }

    @Test func tryCatchFailsWithWhatTheHandlerThrows() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, any Error>()
        subject.tryCatch { error -> Publishers.Sequence<[Int], Never> in
            if error.name == "fatal" { throw TestError("rethrown") }
            return [5].publisher
        }.subscribe(recorder)
        subject.send(completion: .failure(TestError("fatal")))
        #expect(rendered(recorder.events) == ["subscription", "failure(rethrown)"])

        let recovered = Recorder<Int, any Error>()
        Fail<Int, TestError>(error: TestError("mild")).tryCatch { _ in [5].publisher }.subscribe(recovered)
        #expect(rendered(recovered.events) == ["subscription", "value(5)", "finished"])
    }
}

@Suite struct RetryTests {
    /// A publisher that emits its attempt number, then fails with "eN".
    private func flaky(_ attempts: Counter) -> some Publisher<Int, TestError> {
        Deferred {
            let attempt = attempts.next()
            return Publishers.Sequence<[Int], TestError>(sequence: [attempt])
                .append(Fail<Int, TestError>(error: TestError("e\(attempt)")))
        }
    }

    @Test func resubscribesUpToTheCountThenFails() {
        let attempts = Counter()
        let recorder = Recorder<Int, TestError>()
        flaky(attempts).retry(2).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .failure(TestError("e3"))])
    }

    @Test func finishingEndsWithoutRetry() {
        let recorder = Recorder<Int, TestError>()
        Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).retry(3).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .finished])
    }

    @Test func demandCarriesAcrossResubscriptions() {
        let attempts = Counter()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2))
        flaky(attempts).retry(2).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .failure(TestError("e3"))])
    }

    @Test func cancelStopsRetrying() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.retry(5).subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func manySynchronousFailuresDoNotRecurse() {
        let attempts = Counter()
        let recorder = Recorder<Int, TestError>()
        Deferred { () -> Fail<Int, TestError> in
            _ = attempts.next()
            return Fail(error: TestError("always"))
        }.retry(100_000).subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError("always"))])
        #expect(attempts.value == 100_001)
    }
}

@Suite struct ConcatenateTests {
    @Test func prependAndAppendValuesAroundTheUpstream() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.prepend(0, 1).append(8, 9).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(0), .value(1)])
        subject.send(5)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(5), .value(8), .value(9), .finished])
    }

    @Test func suffixIsSubscribedOnlyAfterThePrefixFinishes() {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let log = DemandLog()
        let recorder = Recorder<Int, TestError>()
        first.append(second.logRequests(to: log)).subscribe(recorder)
        second.send(99)
        #expect(log.entries.isEmpty)
        first.send(1)
        first.send(completion: .finished)
        second.send(2)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        #expect(log.entries == ["request unlimited"])
        recorder.detachIfRunning()
    }

    @Test func prefixFailureEndsTheStream() {
        let log = DemandLog()
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: TestError("p"))
            .append(Publishers.Sequence<[Int], TestError>(sequence: [1]).logRequests(to: log))
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError("p"))])
        #expect(log.entries.isEmpty)
    }

    @Test func demandCarriesIntoTheSuffix() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(4))
        [1, 2, 3].publisher.append([4, 5]).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .finished])
    }

    @Test func cancelStopsBeforeTheSuffix() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.prepend(0).append(9).subscribe(recorder)
        recorder.cancel()
        subject.send(1)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(0)])
    }

    @Test func prependPublisher() {
        let recorder = Recorder<Int, Never>()
        [3, 4].publisher.prepend([1, 2].publisher).subscribe(recorder)
        #expect(recorder.values == [1, 2, 3, 4])
    }
}

@Suite struct SequencePublisherTests {
    @Test func publishesElementsWithinDemandThenFinishes() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        [1, 2, 3].publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func emptySequenceFinishesAtOnce() {
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        [Int]().publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .finished])
    }

    @Test func cancelFromInsideReceiveStops() {
        let recorder = Recorder<Int, Never>()
        recorder.onValue = { value in if value == 2 { recorder.cancel() } }
        [1, 2, 3].publisher.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.onValue = nil  // the closure holds the recorder
    }

    @Test func reentrantRequestsDoNotRecurse() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        recorder.onValue = { _ in recorder.request(.max(1)) }
        (1...50_000).publisher.subscribe(recorder)
        #expect(recorder.values.count == 50_000)
        #expect(recorder.events.last == .finished)
        recorder.onValue = nil  // the closure holds the recorder
    }
}

/// A thread-safe counter for closures that are not `Sendable`-checked.
final class Counter: @unchecked Sendable {
    private let lock = NSLockLike()
    private var count = 0
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
    var value: Int { lock.withLock { count } }
}

/// A tiny mutex for test helpers (an `NSLock`, which ThreadSanitizer understands on Linux).
final class NSLockLike: @unchecked Sendable {
    private let lock = NSLock()
    func withLock<T>(_ body: () -> T) -> T { lock.withLock(body) }
}

extension Publisher where Failure == Never {
    /// `setFailureType(to:)` without depending on the basic-operator branch.
    func setFailureTypeForTest<E: Error>(_: E.Type) -> AnyPublisher<Output, E> {
        AnyPublisher(NeverFailing<Self, E>(upstream: self))
    }
}

private struct NeverFailing<Upstream: Publisher, E: Error>: Publisher where Upstream.Failure == Never {
    typealias Output = Upstream.Output
    typealias Failure = E
    let upstream: Upstream
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == E {
        upstream.subscribe(
            AnySubscriber<Output, Never>(
                receiveSubscription: { subscriber.receive(subscription: $0) },
                receiveValue: { subscriber.receive($0) },
                receiveCompletion: { _ in subscriber.receive(completion: .finished) }))
    }
}
