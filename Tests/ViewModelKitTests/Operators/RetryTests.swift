import Foundation
import Testing
import ViewModelKit

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

/// `retry`'s argument corners, as Combine's.
@Suite struct RetrySemanticsTests {
    /// Fails `failures` times, then publishes the attempt number and finishes.
    private func flaky(failures: Int, attempts: Counter) -> AnyPublisher<Int, TestError> {
        Deferred { () -> AnyPublisher<Int, TestError> in
            attempts.value += 1
            if attempts.value <= failures {
                return Fail(error: TestError("f\(attempts.value)")).eraseToAnyPublisher()
            }
            return Just(attempts.value).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }.eraseToAnyPublisher()
    }

    final class Counter: @unchecked Sendable { var value = 0 }

    /// Combine's count is only checked for reaching zero, so a negative one never runs out.
    @Test func aNegativeCountRetriesWithoutLimit() {
        let attempts = Counter()
        let recorder = Recorder<Int, TestError>()
        Publishers.Retry(upstream: flaky(failures: 100, attempts: attempts), retries: -1).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(101), .finished])
        #expect(attempts.value == 101)
    }

    @Test func zeroRetriesDeliversTheFirstFailure() {
        let attempts = Counter()
        let recorder = Recorder<Int, TestError>()
        flaky(failures: 3, attempts: attempts).retry(0).subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError("f1"))])
        #expect(attempts.value == 1)
    }

    @Test func aCountOfTwoAllowsTwoResubscriptionsThenDeliversTheLastFailure() {
        let attempts = Counter()
        let recorder = Recorder<Int, TestError>()
        flaky(failures: 5, attempts: attempts).retry(2).subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError("f3"))])
        #expect(attempts.value == 3)
    }
}
