import Testing
import ViewModelKit

/// Tests of `Publishers.First` and the operator that returns it.
@Suite struct FirstTests {
    @Test func firstRequestsEverythingAndWaitsForDemand() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream.first().subscribe(recorder)
        #expect(upstream.log.entries == ["request unlimited"])
        upstream.send(7)
        upstream.send(8)
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func firstOfEmptyFinishesOnDemandAndFailsAtOnce() {
        let empty = Recorder<Int, TestError>(initialDemand: nil)
        Empty<Int, TestError>().first().subscribe(empty)
        #expect(empty.events == [.subscription])
        empty.request(.max(1))
        #expect(empty.events == [.subscription, .finished])
        let failed = Recorder<Int, TestError>(initialDemand: nil)
        Fail<Int, TestError>(error: TestError()).first().subscribe(failed)
        #expect(failed.events == [.subscription, .failure(TestError())])
    }

    @Test func firstCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream.first().subscribe(recorder)
        recorder.cancel()
        upstream.send(1)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }
}
