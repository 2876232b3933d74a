import Testing
import ViewModelKit

/// `flatMap` into `Just`: the inline path (unlimited demand) and the subscribed path (finite
/// demand) give the same values, order, demand and completion as subscribing each `Just`.
@Suite struct FlatMapJustTests {
    @Test func unlimitedDemandDeliversEachValueInOrderThenFinishes() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.flatMap { Just($0 * 10) }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(10), .value(20), .value(30), .finished])
    }

    @Test func finiteMaxPublishersAsksTheOuterForOneMoreAfterEachJust() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.logRequests(to: log).flatMap(maxPublishers: .max(1)) { Just($0) }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [1, 2])
        #expect(log.entries == ["request max(1)", "request max(1)", "request max(1)"])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func finiteDownstreamDemandWaitsForRequests() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        subject.flatMap { Just($0) }.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        #expect(recorder.values == [1, 2])
        recorder.request(.max(1))
        #expect(recorder.values == [1, 2, 3])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func justAndOtherInnerPublishersInterleaveInArrivalOrder() {
        let outer = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        outer.flatMap { $0 < 0 ? other.eraseToAnyPublisher() : Just($0).eraseToAnyPublisher() }.subscribe(recorder)
        outer.send(-1)
        outer.send(1)
        other.send(100)
        outer.send(2)
        #expect(recorder.values == [1, 100, 2])
        recorder.detach()  // streams that never end: subscriber and subscription hold each other
    }

    @Test func cancelStopsInlineDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        subject.flatMap { Just($0) }.subscribe(recorder)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.events == [.subscription, .value(1)])
    }
}
