import Foundation
import Synchronization
import Testing
import ViewModelKit

/// `flatMap` into `Just` takes an inline path (no child subscriber, no subscription) whenever
/// downstream demand is outstanding. Each scenario runs twice, once with `Just` (inline) and once
/// with the same `Just` type-erased (always subscribed as a child of the merge engine), and
/// checks that both give exactly the expected events and upstream requests.
@Suite struct FlatMapJustParityTests {
    /// What one run saw: the downstream's events and what the outer publisher was asked for.
    struct Trace: Equatable, CustomStringConvertible {
        var events: [String]
        var requests: [String]
        var description: String { "events \(events), requests \(requests)" }
    }

    /// Runs `script` against `subject.flatMap(maxPublishers:) { inner($0) }` into `recorder`.
    static func run<Failure: Error, Inner: Publisher>(
        maxPublishers: Subscribers.Demand, recorder: Recorder<Int, Failure>,
        inner: @escaping (Int) -> Inner,
        _ script: (PassthroughSubject<Int, Failure>, Recorder<Int, Failure>) -> Void
    ) -> Trace where Inner.Output == Int, Inner.Failure == Failure {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Failure>()
        subject.logRequests(to: log).flatMap(maxPublishers: maxPublishers, inner).subscribe(recorder)
        script(subject, recorder)
        recorder.onValue = nil
        recorder.detachIfRunning()
        return Trace(events: rendered(recorder.events), requests: log.entries)
    }

    /// Both paths for an upstream that cannot fail (`FlatMap<Just<Int>, …>`).
    static func bothPaths(
        maxPublishers: Subscribers.Demand = .unlimited, initialDemand: Subscribers.Demand? = .unlimited,
        demandPerValue: Subscribers.Demand = .none,
        _ script: (PassthroughSubject<Int, Never>, Recorder<Int, Never>) -> Void
    ) -> (inline: Trace, subscribed: Trace) {
        let inline = run(
            maxPublishers: maxPublishers,
            recorder: Recorder<Int, Never>(initialDemand: initialDemand, demandPerValue: demandPerValue),
            inner: { Just($0) }, script)
        let subscribed = run(
            maxPublishers: maxPublishers,
            recorder: Recorder<Int, Never>(initialDemand: initialDemand, demandPerValue: demandPerValue),
            inner: { Just($0).eraseToAnyPublisher() }, script)
        return (inline, subscribed)
    }

    /// Both paths for an upstream that can fail (`FlatMap<SetFailureType<Just<Int>, TestError>, …>`).
    static func bothFailingPaths(
        maxPublishers: Subscribers.Demand = .unlimited, initialDemand: Subscribers.Demand? = .unlimited,
        _ script: (PassthroughSubject<Int, TestError>, Recorder<Int, TestError>) -> Void
    ) -> (inline: Trace, subscribed: Trace) {
        let inline = run(
            maxPublishers: maxPublishers, recorder: Recorder<Int, TestError>(initialDemand: initialDemand),
            inner: { Publishers.SetFailureType<Just<Int>, TestError>(upstream: Just($0)) }, script)
        let subscribed = run(
            maxPublishers: maxPublishers, recorder: Recorder<Int, TestError>(initialDemand: initialDemand),
            inner: { Just($0).setFailureType(to: TestError.self).eraseToAnyPublisher() }, script)
        return (inline, subscribed)
    }

    @Test func finiteDemandDeliversWithinDemandAndTheRestWaitsInArrivalOrder() {
        let traces = Self.bothPaths(initialDemand: .max(2)) { subject, recorder in
            subject.send(1)
            subject.send(2)
            subject.send(3)  // no demand left: waits
            #expect(recorder.values == [1, 2])
            recorder.request(.max(1))
            subject.send(4)  // waits
            recorder.request(.max(2))
            subject.send(5)
            subject.send(6)  // demand used up again: waits
            subject.send(completion: .finished)
            #expect(recorder.values == [1, 2, 3, 4, 5])
            recorder.request(.max(1))
        }
        let expected = Trace(
            events: [
                "subscription", "value(1)", "value(2)", "value(3)", "value(4)", "value(5)", "value(6)", "finished",
            ],
            requests: ["request unlimited"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }

    @Test func demandReturnedFromTheSinkIsHonoured() {
        let traces = Self.bothPaths(initialDemand: .max(1), demandPerValue: .max(1)) { subject, _ in
            for value in 1...4 { subject.send(value) }
            subject.send(completion: .finished)
        }
        let expected = Trace(
            events: ["subscription", "value(1)", "value(2)", "value(3)", "value(4)", "finished"],
            requests: ["request unlimited"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }

    @Test func maxPublishersOneUnderLimitedDemandAsksTheOuterOnlyAfterEachJustFinished() {
        let traces = Self.bothPaths(maxPublishers: .max(1), initialDemand: .max(1)) { subject, recorder in
            subject.send(1)  // delivered; the outer is asked for one more
            subject.send(2)  // no downstream demand: its Just waits, the outer is not asked
            subject.send(3)  // beyond the outer's demand: the subject drops it
            #expect(recorder.values == [1])
            recorder.request(.max(1))  // 2 goes out, its Just finishes, the outer is asked again
            subject.send(4)  // waits for demand
            subject.send(completion: .finished)  // the stream waits for 4's Just
            recorder.request(.max(5))
        }
        let expected = Trace(
            events: ["subscription", "value(1)", "value(2)", "value(4)", "finished"],
            // Not after 4's Just: the outer had finished by then.
            requests: ["request max(1)", "request max(1)", "request max(1)"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }

    @Test func maxPublishersTwoUnderUnlimitedDemandReplenishesAfterEveryValue() {
        let traces = Self.bothPaths(maxPublishers: .max(2)) { subject, _ in
            for value in 1...3 { subject.send(value) }
            subject.send(completion: .finished)
        }
        let expected = Trace(
            events: ["subscription", "value(1)", "value(2)", "value(3)", "finished"],
            requests: ["request max(2)", "request max(1)", "request max(1)", "request max(1)"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }

    @Test func reentrantSendsFromInsideTheSinkComeAfterTheCurrentValue() {
        for demand in [Subscribers.Demand.unlimited, .max(10)] {
            let traces = Self.bothPaths(initialDemand: demand) { subject, recorder in
                recorder.onValue = { value in
                    if value < 10 {
                        subject.send(value * 10)
                        subject.send(value * 10 + 1)
                    }
                }
                subject.send(1)
                subject.send(2)
                subject.send(completion: .finished)
            }
            let expected = Trace(
                events: [
                    "subscription", "value(1)", "value(10)", "value(11)", "value(2)", "value(20)", "value(21)",
                    "finished",
                ],
                requests: ["request unlimited"])
            #expect(traces.inline == expected, "demand \(demand)")
            #expect(traces.subscribed == expected, "demand \(demand)")
        }
    }

    @Test func completionSentFromInsideTheSinkWaitsForTheValuesQueuedBeforeIt() {
        let traces = Self.bothPaths(initialDemand: .max(3)) { subject, recorder in
            recorder.onValue = { value in
                if value == 1 {
                    subject.send(2)
                    subject.send(completion: .finished)
                }
            }
            subject.send(1)
        }
        let expected = Trace(
            events: ["subscription", "value(1)", "value(2)", "finished"], requests: ["request unlimited"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }

    @Test func cancelFromInsideTheSinkStopsEverythingAfterIt() {
        let traces = Self.bothPaths(initialDemand: .max(5)) { subject, recorder in
            recorder.onValue = { value in
                if value == 2 {
                    subject.send(3)  // queued behind 2, then dropped by the cancel
                    recorder.cancel()
                }
            }
            subject.send(1)
            subject.send(2)
            subject.send(4)
        }
        let expected = Trace(
            events: ["subscription", "value(1)", "value(2)"], requests: ["request unlimited", "cancel"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }

    @Test func upstreamThatCanFailDeliversJustsInlineAndItsFailureAtOnce() {
        let traces = Self.bothFailingPaths(initialDemand: .max(2)) { subject, recorder in
            subject.send(1)
            subject.send(2)
            subject.send(3)  // waits for demand
            subject.send(completion: .failure(TestError("outer")))  // drops 3
            recorder.request(.max(1))
        }
        let expected = Trace(
            events: ["subscription", "value(1)", "value(2)", "failure(outer)"], requests: ["request unlimited"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }

    @Test func failureSentFromInsideTheSinkDropsTheQueuedValues() {
        let traces = Self.bothFailingPaths { subject, recorder in
            recorder.onValue = { value in
                if value == 1 {
                    subject.send(2)  // queued, then dropped by the failure
                    subject.send(completion: .failure(TestError("inner")))
                }
            }
            subject.send(1)
        }
        let expected = Trace(
            events: ["subscription", "value(1)", "failure(inner)"], requests: ["request unlimited"])
        #expect(traces.inline == expected)
        #expect(traces.subscribed == expected)
    }
}

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

    @Test func flatMapReleasesAValueOnceDelivered() {
        let live = LiveCount()
        let source = PassthroughSubject<Int, Never>()
        let recorder = BoxSubscriber()
        // On the first value, 2 and 3 arrive re-entrantly: they queue behind it.
        recorder.onValue = { box in
            if box.value == 1 {
                source.send(2)
                source.send(3)
            }
        }
        source.flatMap { Just(Box($0, live)) }.subscribe(recorder)
        source.send(1)
        #expect(recorder.seen == [1, 2])
        #expect(live.value == 1)  // only 3, still waiting for demand
        recorder.request(.max(1))
        #expect(recorder.seen == [1, 2, 3])
        #expect(live.value == 0)
        recorder.cancel()
    }

    @Test func flatMapNeverFailingUpstreamIntoFailingInners() {
        let recorder = Recorder<Int, TestError>()
        [1, 2].publisher.flatMap { value -> Publishers.Sequence<[Int], TestError> in
            Publishers.Sequence(sequence: [value, value])
        }.subscribe(recorder)
        #expect(recorder.values == [1, 1, 2, 2])
        let failing = Recorder<Int, TestError>()
        [1].publisher.flatMap { _ in Fail<Int, TestError>(error: TestError("inner")) }.subscribe(failing)
        #expect(failing.events == [.subscription, .failure(TestError("inner"))])
    }

    @Test func flatMapFailingUpstreamIntoNeverFailingInners() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.flatMap { [$0, $0 * 10].publisher }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("outer")))
        #expect(recorder.events == [.subscription, .value(1), .value(10), .failure(TestError("outer"))])
    }
}
