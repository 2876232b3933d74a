import Dispatch
import Testing
import ViewModelKit

/// `buffer(size:prefetch:whenFull:)`, as Combine's.
@Suite struct BufferTests {
    @Test func keepFullPrefetchesSizeAndReplacesEachValueHandedOn() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        #expect(upstream.log.entries == ["request max(3)"])
        #expect(recorder.events == [.subscription])
        upstream.send(1)
        upstream.send(2)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(upstream.log.entries == ["request max(3)", "request max(1)"])
        recorder.request(.max(5))
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func byRequestAsksForUnlimitedBeforeTheSubscriberIsSubscribed() {
        let upstream = ManualPublisher<Int, Never>()
        var seenBeforeSubscription: [String] = []
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        upstream
            .buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
            .handleEvents(receiveSubscription: { _ in seenBeforeSubscription = upstream.log.entries })
            .subscribe(recorder)
        #expect(seenBeforeSubscription == ["request unlimited"])
        recorder.request(.max(2))
        #expect(upstream.log.entries == ["request unlimited", "request max(2)"])
        recorder.detach()  // a stream that never ends: its subscriber and subscription hold each other
    }

    @Test func dropNewestAndDropOldestWhenFull() {
        let newest = ManualPublisher<Int, Never>()
        let keepsFirst = Recorder<Int, Never>(initialDemand: nil)
        newest.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(keepsFirst)
        for value in 1...4 { newest.send(value) }
        newest.send(completion: .finished)
        keepsFirst.request(.unlimited)
        #expect(keepsFirst.events == [.subscription, .value(1), .value(2), .finished])

        let oldest = ManualPublisher<Int, Never>()
        let keepsLast = Recorder<Int, Never>(initialDemand: nil)
        oldest.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(keepsLast)
        for value in 1...4 { oldest.send(value) }
        oldest.send(completion: .finished)
        keepsLast.request(.unlimited)
        #expect(keepsLast.events == [.subscription, .value(3), .value(4), .finished])
    }

    @Test func customErrorFailsAtOnceAndCancelsUpstream() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .customError { TestError("full") }).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .failure(TestError("full"))])
        #expect(upstream.log.entries == ["request unlimited", "cancel"])
    }

    @Test func finishedWaitsForBufferedValuesButFailureDoesNot() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        subject.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError("f")))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("f"))])
    }

    @Test func valuesKeepTheirOrderAcrossManyRefills() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
        (1...200).publisher.buffer(size: 7, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        #expect(recorder.values == Array(1...200))
        #expect(recorder.events.last == .finished)
    }

    // Upstream is asked before the subscriber has its subscription; a stream that ends (or
    // overflows) right then must still reach the subscriber after its subscription.
    @Test func nothingReachesTheSubscriberBeforeItsSubscription() {
        let finished = Recorder<Int, Never>(initialDemand: nil)
        [5].publisher.eraseToAnyPublisher().buffer(size: 0, prefetch: .byRequest, whenFull: .dropNewest).subscribe(
            finished)
        #expect(finished.events == [.subscription, .finished])
        let failed = Recorder<Int, TestError>(initialDemand: nil)
        [5].publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
            .buffer(size: 0, prefetch: .byRequest, whenFull: .customError { TestError("full") })
            .subscribe(failed)
        #expect(failed.events == [.subscription, .failure(TestError("full"))])
    }

    @Test func bufferKeepsOrderWhileDemandArrivesFromAnotherThread() {
        let count = 5_000
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        subject.buffer(size: count, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            for value in 1...count { subject.send(value) }
            subject.send(completion: .finished)
        }
        DispatchQueue.global().async(group: group) {
            for _ in 1...count { recorder.request(.max(1)) }
        }
        group.wait()
        #expect(recorder.values == Array(1...count))
        #expect(recorder.events.last == .finished)
    }
}
