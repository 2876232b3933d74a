import Testing
import ViewModelKit

/// Tests of `Publishers.Collect` and the operator that returns it.
@Suite struct CollectTests {
    @Test func collectGathersAllValues() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<[Int], Never>(initialDemand: .max(1))
        subject.collect().subscribe(recorder)
        for i in 1...4 { subject.send(i) }
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1, 2, 3, 4]), .finished])

        let empty = Recorder<[Int], Never>()
        Empty<Int, Never>().collect().subscribe(empty)
        #expect(empty.events == [.subscription, .value([]), .finished])
    }

    @Test func collectFailureDiscardsAndCancelStops() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>()
        subject.collect().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        #expect(recorder.events == [.subscription, .failure(TestError())])

        let upstream = ManualPublisher<Int, Never>()
        let cancelled = Recorder<[Int], Never>(initialDemand: nil)
        upstream.collect().subscribe(cancelled)
        upstream.send(1)
        cancelled.cancel()
        upstream.send(completion: .finished)
        cancelled.request(.max(1))
        #expect(cancelled.events == [.subscription])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }
}
