import Testing
import ViewModelKit

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

    @Test func switchToLatestOverloads() {
        let neverOuter = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
        let inner = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        neverOuter.switchToLatest().subscribe(recorder)
        neverOuter.send(inner)
        inner.send(1)
        inner.send(completion: .failure(TestError("inner")))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("inner"))])

        let failingOuter = PassthroughSubject<Publishers.Sequence<[Int], Never>, TestError>()
        let second = Recorder<Int, TestError>()
        failingOuter.switchToLatest().subscribe(second)
        failingOuter.send([1, 2].publisher)
        failingOuter.send(completion: .failure(TestError("outer")))
        #expect(second.events == [.subscription, .value(1), .value(2), .failure(TestError("outer"))])

        let plain = Recorder<Int, Never>()
        [[1].publisher, [2, 3].publisher].publisher.switchToLatest().subscribe(plain)
        #expect(plain.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }
}
