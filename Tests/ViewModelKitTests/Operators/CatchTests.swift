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

    @Test func tryCatchPassesOnTheReplacementsFailureAsAnyError() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, any Error>()
        subject.tryCatch { _ in Fail<Int, TestError>(error: TestError("second")) }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("first")))
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "failure(second)"])
    }

    @Test func catchPassesOnTheReplacementsFailure() {
        let recorder = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: TestError("first"))
            .catch { _ in Fail<Int, TestError>(error: TestError("second")) }
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .failure(TestError("second"))])
    }
}
