import Foundation
import Testing
import ViewModelKit
import ViewModelKitSchedulers

/// Tests of `Publishers.ReplaceEmpty` and the operator that returns it.
@Suite struct ReplaceEmptyTests {
    @Test func nothingIsDeliveredAfterTheSubscriberCancelled() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder<Int, Never>(demandPerValue: .max(4))
        upstream.replaceEmpty(with: 0).subscribe(recorder)
        #expect(upstream.send(1) == .max(4))
        recorder.cancel()
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
    }

    @Test func replaceEmptyWaitsForDemandThenPublishesTheReplacement() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        subject.replaceEmpty(with: 42).subscribe(recorder)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(42), .finished])
    }

    @Test func replaceEmptyPassesValuesAndFailuresUnchanged() {
        let values = Recorder<Int, Never>()
        [1, 2].publisher.eraseToAnyPublisher().replaceEmpty(with: 42).subscribe(values)
        #expect(values.events == [.subscription, .value(1), .value(2), .finished])
        let failed = Recorder<Int, TestError>()
        Fail<Int, TestError>(error: TestError("f")).replaceEmpty(with: 42).subscribe(failed)
        #expect(failed.events == [.subscription, .failure(TestError("f"))])
        let log = DemandLog()
        let demand = Recorder<Int, Never>(initialDemand: .max(3))
        Empty<Int, Never>(completeImmediately: false).logRequests(to: log).replaceEmpty(with: 1).subscribe(demand)
        // As Combine: the subscriber's demand, then `.unlimited` once it is subscribed.
        #expect(log.entries == ["request max(3)", "request unlimited"])
        demand.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }
}
