import Foundation
import Synchronization
import Testing
import ViewModelKit

/// The merge engine (`flatMap`, `merge`) keeps alive only the values still waiting for
/// demand: a value it delivered is the subscriber's to keep or drop, as in Combine.
@Suite struct MergeRetentionTests {
    /// A class-typed value counting the live instances.
    final class Box: Sendable {
        let value: Int
        let live: LiveCount
        init(_ value: Int, _ live: LiveCount) {
            self.value = value
            self.live = live
            live.add(1)
        }
        deinit { live.add(-1) }
    }

    final class LiveCount: Sendable {
        private let count = Atomic<Int>(0)
        var value: Int { count.load(ordering: .relaxed) }
        func add(_ delta: Int) { count.add(delta, ordering: .relaxed) }
    }

    /// Asks for two values, records only their numbers (the boxes are dropped at once) and runs
    /// `onValue` inside `receive(_:)` for re-entrant sends.
    final class BoxSubscriber: Subscriber, @unchecked Sendable {
        private let mutex = NSLock()
        private var numbers: [Int] = []
        private var subscription: Subscription?
        var onValue: ((Box) -> Void)?
        var seen: [Int] { mutex.withLock { numbers } }
        func receive(subscription: Subscription) {
            mutex.withLock { self.subscription = subscription }
            subscription.request(.max(2))
        }
        func receive(_ input: Box) -> Subscribers.Demand {
            mutex.withLock { numbers.append(input.value) }
            onValue?(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) {}
        func request(_ demand: Subscribers.Demand) { mutex.withLock { subscription }?.request(demand) }
        func cancel() {
            let held = mutex.withLock { () -> Subscription? in
                defer { subscription = nil }
                return subscription
            }
            held?.cancel()
        }
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
    }

    /// combineLatest's queue forms when inputs send from other threads during a delivery; a
    /// delivered combination is released at once, not when the whole queue empties.
    @Test func combineLatestReleasesADeliveredCombinationWhileOthersWait() {
        let live = LiveCount()
        // ManualPublisher: a subject would serialise the second thread's sends behind the
        // delivery in progress; the queue forms only when sends reach the operator meanwhile.
        let a = ManualPublisher<Box, Never>()
        let b = ManualPublisher<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let watched = WeakBox()
        let cancellable = a.combineLatest(b).sink { _ in
            entered.signal()
            proceed.wait()
        }
        b.send(0)
        let sender = Thread {
            a.send(Box(0, live))  // delivered on this thread, which then drains the queue
            done.signal()
        }
        sender.start()
        entered.wait()
        do {
            let one = Box(1, live)
            watched.value = one
            a.send(one)  // queued behind the delivery in progress
        }
        a.send(Box(2, live))
        a.send(Box(3, live))
        proceed.signal()  // (0) done; (1) is delivered next
        entered.wait()
        proceed.signal()  // (1) done and dropped by the sink; (2) is delivered next
        entered.wait()
        #expect(watched.value == nil)  // only the queue could still hold (1)
        proceed.signal()
        entered.wait()
        proceed.signal()
        done.wait()
        cancellable.cancel()
        #expect(live.value == 0)  // the latest values go with the subscription
    }

    final class WeakBox: @unchecked Sendable {
        weak var value: Box?
    }
}
