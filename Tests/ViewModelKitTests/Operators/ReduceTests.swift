import Testing
import ViewModelKit

/// Tests of `Publishers.Reduce` and the operator that returns it.
@Suite struct ReduceTests {
    @Test func reduceFoldsAndWaitsForDemand() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<[Int], TestError>(initialDemand: nil)
        subject.logRequests(to: log).reduce([0]) { $0 + [$1] }.subscribe(recorder)
        #expect(log.entries == ["request unlimited"])
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        #expect(recorder.events == [.subscription, .value([0, 1, 2]), .finished])
    }

    @Test func reduceOfEmptyPublishesTheInitialResult() {
        let recorder = Recorder<Int, Never>()
        Empty<Int, Never>().reduce(7, +).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(7), .finished])
    }

    @Test func reduceFailurePassesAtOnceWithoutDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: nil)
        subject.reduce(0, +).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("up")))
        #expect(recorder.events == [.subscription, .failure(TestError("up"))])
    }

    @Test func tryReduceThrowCancelsUpstreamAndFails() {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, any Error>(initialDemand: nil)
        subject.logRequests(to: log).tryReduce(0) { sum, value in
            if value == 3 { throw TestError("three") }
            return sum + value
        }.subscribe(recorder)
        subject.send(1)
        subject.send(3)
        subject.send(4)
        #expect(log.entries == ["request unlimited", "cancel"])
        #expect(rendered(recorder.events) == ["subscription", "failure(three)"])
    }

    @Test func tryReduceSumsWhenNothingThrows() {
        let recorder = Recorder<Int, any Error>()
        [1, 2, 3].publisher.eraseToAnyPublisher().tryReduce(10) { $0 + $1 }.subscribe(recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(16)", "finished"])
    }

    /// As recorded for Combine (OpenCombine's `testUpstreamFinishesImmediatelyWithoutDemand`):
    /// an operator with nothing to publish still waits for demand before `.finished`.
    @Test func anEmptyResultFinishesOnlyOnceTheSubscriberAsks() {
        func check<P: Publisher>(
            _ name: Comment, _ make: (PassthroughSubject<Int, Never>) -> P
        ) where P.Output: Equatable, P.Failure: Equatable {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = Recorder<P.Output, P.Failure>(initialDemand: nil)
            make(subject).subscribe(recorder)
            subject.send(completion: .finished)
            #expect(recorder.events == [.subscription], name)
            recorder.request(.max(1))
            #expect(recorder.events == [.subscription, .finished], name)
        }
        check("first") { $0.first() }
        check("last") { $0.last() }
        check("min") { $0.min() }
        check("max") { $0.max() }
        check("first(where:)") { $0.first { $0 > 0 } }
        check("last(where:)") { $0.last { $0 > 0 } }
        check("tryFirst(where:)") { $0.tryFirst { $0 > 0 }.mapError { _ in TestError("thrown") } }
        check("tryMin(by:)") { $0.tryMin(by: <).mapError { _ in TestError("thrown") } }
    }
}
