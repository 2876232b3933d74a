import Testing
import ViewModelKit

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
