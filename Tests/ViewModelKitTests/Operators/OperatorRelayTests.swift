import Testing
import ViewModelKit

/// Paths of the shared two-stage relay (`Concatenate`, `Catch`, `TryCatch`) where the second
/// publisher fails.
@Suite struct TwoStageRelayTests {
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

    @Test func suffixFailureEndsTheStream() {
        let recorder = Recorder<Int, TestError>()
        [1].publisher.setFailureTypeForTest(TestError.self)
            .append(Fail<Int, TestError>(error: TestError("s")))
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("s"))])
    }
}
