import Dispatch
import Foundation
import Synchronization
import Testing
import ViewModelKit

/// A subscriber whose demand comes from another thread while `receive(subscription:)` is still
/// running (as with `subscribe(on:)`), and which sends a newer value meanwhile.
private final class HandOffSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    private let lock = NSLock()
    private var values: [Int] = []
    private let subject: CurrentValueSubject<Int, Never>
    let requested = DispatchSemaphore(value: 0)

    init(_ subject: CurrentValueSubject<Int, Never>) {
        self.subject = subject
    }

    func receive(subscription: Subscription) {
        let entered = Atomic<Bool>(false)
        let box = UncheckedBox(subscription)
        Thread { [requested] in
            entered.store(true, ordering: .releasing)
            box.value.request(.unlimited)
            requested.signal()
        }.start()
        while !entered.load(ordering: .acquiring) { sched_yield() }
        // Give the other thread time to read the value to replay (before the fix it then waited
        // for this call to return). If it is slower than this, the trial passes without testing.
        usleep(20_000)
        subject.send(1)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        lock.withLock { values.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    var received: [Int] { lock.withLock { values } }
}

private final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Regression: a replaying subject's subscription read the value to replay, then took
/// demand and delivered it without holding its delivery lock across; a `send` made in between
/// was delivered first, and the subscriber ended on the stale value. Here the first demand
/// comes from another thread while the subscriber, still in `receive(subscription:)` (which runs
/// under the delivery lock), sends a newer value: the subscriber must end on the newer value.
@Suite struct ReplayOrderTests {
    @Test func lateDemandFromAnotherThreadNeverEndsOnAStaleReplay() {
        for _ in 0..<5 {
            let subject = CurrentValueSubject<Int, Never>(0)
            let subscriber = HandOffSubscriber(subject)
            subject.subscribe(subscriber)
            subscriber.requested.wait()
            #expect(subscriber.received.last == 1)
            #expect(subject.value == 1)
            subject.send(completion: .finished)  // ends the subscription (no cycle left behind)
        }
    }
}
