import Testing
import ViewModelKit

@Suite struct FlatMapTests {
    @Test func mergesInnerValuesAndFinishesAfterUpstreamAndAllInners() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inners = [PassthroughSubject<String, TestError>(), PassthroughSubject<String, TestError>()]
        let recorder = Recorder<String, TestError>()
        upstream.flatMap { inners[$0] }.subscribe(recorder)

        upstream.send(0)
        inners[0].send("a")
        upstream.send(1)
        inners[1].send("b")
        inners[0].send("c")
        upstream.send(completion: .finished)
        inners[0].send(completion: .finished)
        #expect(recorder.events == [.subscription, .value("a"), .value("b"), .value("c")])
        inners[1].send(completion: .finished)
        #expect(recorder.events == [.subscription, .value("a"), .value("b"), .value("c"), .finished])
    }

    @Test func maxPublishersLimitsConcurrentInners() {
        let log = DemandLog()
        let upstream = PassthroughSubject<Int, TestError>()
        let inners = (0..<3).map { _ in PassthroughSubject<String, TestError>() }
        let recorder = Recorder<String, TestError>()
        upstream.logRequests(to: log).flatMap(maxPublishers: .max(1)) { inners[$0] }.subscribe(recorder)

        upstream.send(0)
        upstream.send(1)  // not requested: the subject drops it
        inners[0].send("a")
        inners[0].send(completion: .finished)  // frees a slot: one more upstream value is requested
        upstream.send(2)
        inners[2].send("c")
        #expect(recorder.events == [.subscription, .value("a"), .value("c")])
        #expect(log.entries == ["request max(1)", "request max(1)"])
        recorder.detachIfRunning()
    }

    @Test func innerFailureEndsTheStreamAndCancelsTheRest() {
        let log = DemandLog()
        let upstream = PassthroughSubject<Int, TestError>()
        let inners = [PassthroughSubject<String, TestError>(), PassthroughSubject<String, TestError>()]
        let recorder = Recorder<String, TestError>()
        upstream.logRequests(to: log).flatMap { inners[$0] }.subscribe(recorder)
        upstream.send(0)
        upstream.send(1)
        inners[1].send(completion: .failure(TestError("inner")))
        inners[0].send("late")
        #expect(recorder.events == [.subscription, .failure(TestError("inner"))])
        #expect(log.entries == ["request unlimited", "cancel"])
    }

    @Test func upstreamFailureEndsTheStream() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = PassthroughSubject<String, TestError>()
        let recorder = Recorder<String, TestError>()
        upstream.flatMap { _ in inner }.subscribe(recorder)
        upstream.send(0)
        upstream.send(completion: .failure(TestError("outer")))
        inner.send("late")
        #expect(recorder.events == [.subscription, .failure(TestError("outer"))])
    }

    @Test func cancelCancelsUpstreamAndInners() {
        let outerLog = DemandLog()
        let innerLog = DemandLog()
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = PassthroughSubject<String, TestError>()
        let recorder = Recorder<String, TestError>()
        upstream.logRequests(to: outerLog).flatMap { _ in inner.logRequests(to: innerLog) }.subscribe(recorder)
        upstream.send(0)
        recorder.cancel()
        inner.send("late")
        #expect(recorder.events == [.subscription])
        #expect(outerLog.entries == ["request unlimited", "cancel"])
        #expect(innerLog.entries == ["request unlimited", "cancel"])
    }

    @Test func innerValuesRespectDownstreamDemand() {
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        [1, 2].publisher.flatMap { [$0 * 10, $0 * 10 + 1].publisher }.subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(10), .value(11), .value(20)])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value(10), .value(11), .value(20), .value(21), .finished])
    }
}

@Suite struct SwitchToLatestTests {
    @Test func followsOnlyTheNewestInner() {
        let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, TestError>()
        let x = PassthroughSubject<Int, TestError>()
        let y = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)

        outer.send(x)
        x.send(1)
        outer.send(y)
        x.send(2)
        y.send(3)
        outer.send(completion: .finished)
        y.send(4)
        #expect(recorder.events == [.subscription, .value(1), .value(3), .value(4)])
        y.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(3), .value(4), .finished])
    }

    @Test func switchingCancelsThePreviousInner() {
        let log = DemandLog()
        let outer = PassthroughSubject<AnyPublisher<Int, TestError>, TestError>()
        let x = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(x.logRequests(to: log).eraseToAnyPublisher())
        outer.send(Empty<Int, TestError>(completeImmediately: false).eraseToAnyPublisher())
        #expect(log.entries == ["request unlimited", "cancel"])
        recorder.detachIfRunning()
    }

    @Test func innerFailureEndsTheStream() {
        let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, TestError>()
        let x = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(x)
        x.send(completion: .failure(TestError("x")))
        #expect(recorder.events == [.subscription, .failure(TestError("x"))])
    }

    @Test func cancelStopsEverything() {
        let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, TestError>()
        let x = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(x)
        recorder.cancel()
        x.send(1)
        outer.send(completion: .finished)
        #expect(recorder.events == [.subscription])
    }

    @Test func newInnerGetsTheOutstandingDemand() {
        let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, TestError>()
        let x = PassthroughSubject<Int, TestError>()
        let y = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(2))
        outer.switchToLatest().subscribe(recorder)
        outer.send(x)
        x.send(1)
        outer.send(y)
        y.send(2)
        y.send(3)  // demand used up: y was not asked for a third value
        #expect(recorder.events == [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        y.send(4)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(4)])
        recorder.detachIfRunning()
    }
}
