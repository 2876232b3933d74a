import Dispatch
import Synchronization
import Testing
import ViewModelKit

@Suite struct OperatorConcurrencyTests {
    private let threads = 4

    private let perThread = 2_000

    @Test func mergeSerialisesSendsFromSeveralThreads() {
        let subjects = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let checker = SerialChecker<Int, Never>()
        Publishers.MergeMany(subjects).subscribe(checker)
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<perThread { subjects[index].send(index * perThread + value) }
            subjects[index].send(completion: .finished)
        }
        #expect(checker.waitForCompletion())
        #expect(checker.overlaps == 0)
        #expect(checker.completions == 1)
        let values = checker.values
        #expect(values.count == threads * perThread)
        for index in 0..<threads {
            let fromThread = values.filter { $0 / perThread == index }
            #expect(fromThread == Array(index * perThread..<(index + 1) * perThread))
        }
    }

    @Test func combineLatestSerialisesSendsFromSeveralThreads() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let checker = SerialChecker<(Int, Int), Never>()
        a.combineLatest(b).subscribe(checker)
        a.send(-1)
        b.send(-1)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let subject = index == 0 ? a : b
            for value in 0..<perThread { subject.send(value) }
            subject.send(completion: .finished)
        }
        #expect(checker.waitForCompletion())
        #expect(checker.overlaps == 0)
        #expect(checker.completions == 1)
        #expect(checker.values.count == 1 + 2 * perThread)
        #expect(checker.values.last.map { [$0.0, $0.1] } == [perThread - 1, perThread - 1])
    }

    @Test func flatMapSerialisesInnerPublishersOnSeveralThreads() {
        let inners = (0..<threads).map { _ in PassthroughSubject<Int, Never>() }
        let checker = SerialChecker<Int, Never>()
        (0..<threads).publisher.flatMap { inners[$0] }.subscribe(checker)
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for value in 0..<perThread { inners[index].send(value) }
            inners[index].send(completion: .finished)
        }
        #expect(checker.waitForCompletion())
        #expect(checker.overlaps == 0)
        #expect(checker.values.count == threads * perThread)
    }

    @Test func cancelRacingWithSendsIsSafe() {
        for _ in 0..<50 {
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let checker = SerialChecker<Int, Never>()
            let merged = Publishers.Merge(a, b)
            let token = SubscriptionBox()
            merged.subscribe(
                AnySubscriber<Int, Never>(
                    receiveSubscription: { subscription in
                        token.set(subscription)
                        checker.receive(subscription: subscription)
                    },
                    receiveValue: { checker.receive($0) },
                    receiveCompletion: { checker.receive(completion: $0) }))
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                switch index {
                case 0: for value in 0..<200 { a.send(value) }
                case 1: for value in 0..<200 { b.send(value) }
                default: token.get()?.cancel()
                }
            }
            token.clear()
            #expect(checker.overlaps == 0)
            #expect(checker.completions == 0)
        }
    }

    @Test func receiveOnASerialDispatchQueueKeepsOrderAndCompletesLast() {
        let queue = DispatchQueue(label: "operators.receive-on")
        let subject = PassthroughSubject<Int, Never>()
        let checker = SerialChecker<Int, Never>()
        subject.receive(on: queue).subscribe(checker)
        for value in 0..<1_000 { subject.send(value) }
        subject.send(completion: .finished)
        #expect(checker.waitForCompletion())
        #expect(checker.values == Array(0..<1_000))
        #expect(checker.completions == 1)
    }
}

/// Records values and flags any two downstream calls that overlap in time.
private final class SerialChecker<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let inside = Atomic<Int>(0)
    private let overlapCount = Atomic<Int>(0)
    private let mutex = NSLockLike()
    private nonisolated(unsafe) var recorded: [Input] = []
    private nonisolated(unsafe) var completionCount = 0
    private let done = DispatchSemaphore(value: 0)

    var overlaps: Int { overlapCount.load(ordering: .sequentiallyConsistent) }
    var values: [Input] { mutex.withLock { recorded } }
    var completions: Int { mutex.withLock { completionCount } }

    private func enter() {
        if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
            overlapCount.add(1, ordering: .sequentiallyConsistent)
        }
    }

    private func leave() {
        inside.subtract(1, ordering: .sequentiallyConsistent)
    }

    func receive(subscription: Subscription) {
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        mutex.withLock { recorded.append(input) }
        leave()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        mutex.withLock { completionCount += 1 }
        leave()
        done.signal()
    }

    /// Waits for the completion (bounded, so a bug fails the test instead of hanging it).
    func waitForCompletion() -> Bool {
        done.wait(timeout: .now() + .seconds(10)) == .success
    }
}

/// Hands a subscription from the subscribing thread to a cancelling thread.
private final class SubscriptionBox: @unchecked Sendable {
    private let lock = NSLockLike()
    private var subscription: Subscription?
    func set(_ value: Subscription) { lock.withLock { subscription = value } }
    func get() -> Subscription? { lock.withLock { subscription } }
    /// Forgets the subscription: the subscriber's closures hold this box, and an operator keeps
    /// its subscriber after a cancel as Combine's do, so a box still holding it is a cycle.
    func clear() { lock.withLock { subscription = nil } }
}
