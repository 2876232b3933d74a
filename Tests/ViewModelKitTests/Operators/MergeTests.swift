import Foundation
import Synchronization
import Testing
import ViewModelKit

@Suite struct MergeTests {
    @Test func valuesArriveInArrivalOrderAndFinishOnlyAfterEveryInput() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        b.send(2)
        a.send(3)
        a.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3)])

        b.send(4)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
    }

    @Test func failsAsSoonAsOneInputFails() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        b.send(completion: .failure(TestError("b")))
        a.send(2)
        a.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("b"))])
    }

    @Test func cancelStopsDeliveryAndCancelsEveryInput() {
        let logA = DemandLog()
        let logB = DemandLog()
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.logRequests(to: logA).merge(with: b.logRequests(to: logB)).subscribe(recorder)

        a.send(1)
        recorder.cancel()
        a.send(2)
        b.send(3)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        #expect(logA.entries == ["request unlimited", "cancel"])
        #expect(logB.entries == ["request unlimited", "cancel"])
    }

    @Test func neverDeliversMoreThanRequested() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(initialDemand: .max(1))
        a.merge(with: b).subscribe(recorder)

        a.send(1)  // delivered: demand 1 -> 0
        b.send(2)  // b was asked for one value: it waits in the buffer
        a.send(3)  // a was asked for nothing more: the subject drops it
        #expect(recorder.events == [.subscription, .value(1)])

        recorder.request(.max(2))  // the buffered 2, then one more from either input
        a.send(4)
        b.send(5)  // demand exhausted again: buffered
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(4)])
        recorder.detachIfRunning()
    }

    @Test func mergeManyOfSequencesAndEmpty() {
        let recorder = Recorder<Int, Never>()
        Publishers.MergeMany([1, 2].publisher, [3].publisher, [4, 5].publisher).subscribe(recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .value(5), .finished])

        let none = Recorder<Int, Never>()
        Publishers.MergeMany([Publishers.Sequence<[Int], Never>]()).subscribe(none)
        #expect(none.events == [.subscription, .finished])
    }

    @Test func merge8InterleavesAllInputs() {
        let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = Recorder<Int, Never>()
        subjects[0].merge(
            with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6], subjects[7]
        ).subscribe(recorder)
        for (index, subject) in subjects.enumerated().reversed() { subject.send(index) }
        for subject in subjects.dropLast() { subject.send(completion: .finished) }
        #expect(recorder.values == [7, 6, 5, 4, 3, 2, 1, 0])
        #expect(recorder.events.last == .value(0))
        subjects[7].send(completion: .finished)
        #expect(recorder.events.last == .finished)
    }

    @Test func merge3FinishesAfterAllAndFailsEarly() {
        let a = PassthroughSubject<Int, TestError>()
        let b = PassthroughSubject<Int, TestError>()
        let c = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        a.merge(with: b, c).subscribe(recorder)
        c.send(1)
        a.send(completion: .finished)
        b.send(completion: .finished)
        #expect(recorder.events == [.subscription, .value(1)])
        c.send(completion: .failure(TestError("c")))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("c"))])
    }

    @Test func flatMapLikeReentrantSendIsDeliveredAfterTheCurrentValue() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>()
        recorder.onValue = { value in if value == 1 { b.send(10) } }
        a.merge(with: b).subscribe(recorder)
        a.send(1)
        a.send(2)
        #expect(recorder.values == [1, 10, 2])
        recorder.detachIfRunning()
    }

    @Test func mergeReleasesAValueOnceDelivered() {
        let live = LiveCount()
        let a = PassthroughSubject<Box, Never>()
        let b = PassthroughSubject<Box, Never>()
        let c = PassthroughSubject<Box, Never>()
        let recorder = BoxSubscriber()
        recorder.onValue = { box in
            if box.value == 1 {
                b.send(Box(2, live))
                c.send(Box(3, live))
            }
        }
        a.merge(with: b, c).subscribe(recorder)
        a.send(Box(1, live))
        #expect(recorder.seen == [1, 2])
        #expect(live.value == 1)
        recorder.request(.max(1))
        #expect(recorder.seen == [1, 2, 3])
        #expect(live.value == 0)
        recorder.cancel()
    }

    /// A backlog that never empties (values sent from inside `receive` queue behind the one being
    /// delivered; each sends the one two further on) goes through the queue's compaction many
    /// times: every value arrives once, in order.
    @Test func aQueueThatNeverEmptiesKeepsOrderAndAccountingThroughCompaction() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let total = 1_000
        var seen: [Int] = []
        var subscription: Subscription?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { given in
                subscription = given
                given.request(.unlimited)
            },
            receiveValue: { value in
                seen.append(value)
                let next = value == 0 ? [1, 2] : [value + 2]
                for number in next where number < total {
                    (number.isMultiple(of: 2) ? a : b).send(number)
                }
                return .none
            },
            receiveCompletion: { _ in })
        a.merge(with: b).subscribe(subscriber)
        a.send(0)
        #expect(seen == Array(0..<total))
        subscription?.cancel()
        subscription = nil  // the subscriber's closure holds this variable; merge keeps its subscriber
    }
}
