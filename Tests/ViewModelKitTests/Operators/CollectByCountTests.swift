import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// `collect(_:)` by count and `collect(_:options:)` by time or count, as Combine's.
@Suite struct CollectByCountTests {
    @Test func nothingIsDeliveredAfterTheSubscriberCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<[Int], Never>(demandPerValue: .max(4))
        upstream.collect(2).subscribe(recorder)
        #expect(upstream.send(1) == .none)
        recorder.cancel()
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription])
    }

    @Test func groupsAndScalesDemandByCount() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<[Int], TestError>(initialDemand: .max(2), demandPerValue: .max(1))
        upstream.collect(3).subscribe(recorder)
        #expect(upstream.log.entries == ["request max(6)"])
        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .max(3))
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value([1, 2, 3]), .value([4]), .finished])
    }

    @Test func failureDropsThePartialGroup() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>()
        subject.collect(2).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .failure(TestError("f")))
        #expect(recorder.events == [.subscription, .value([1, 2]), .failure(TestError("f"))])
    }

    @Test func unlimitedDemandStaysUnlimitedAndEmptyFinishesAlone() {
        let log = DemandLog()
        let recorder = Recorder<[Int], Never>()
        Empty<Int, Never>(completeImmediately: false).logRequests(to: log).collect(4).subscribe(recorder)
        #expect(log.entries == ["request unlimited"])
        let empty = Recorder<[Int], Never>()
        Empty<Int, Never>().collect(2).subscribe(empty)
        #expect(empty.events == [.subscription, .finished])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
        empty.detach()
    }
}
