import LoopTestSupport
import Testing
import ViewModelKit

@Suite struct AsyncPublisherTests {
    @Test func valuesYieldsEveryValueThenEnds() async {
        var collected: [Int] = []
        for await value in [1, 2, 3].publisher.values { collected.append(value) }
        #expect(collected == [1, 2, 3])
    }

    @Test func valuesRequestsOneValuePerNext() async {
        let log = DemandLog()
        var iterator = [1, 2].publisher.logRequests(to: log).values.makeAsyncIterator()
        #expect(log.entries.isEmpty)
        #expect(await iterator.next() == 1)
        #expect(log.entries == ["request max(1)"])
        #expect(await iterator.next() == 2)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
        // The sequence finishes right after its last element, so no third request is needed.
        #expect(log.entries == ["request max(1)", "request max(1)"])
    }

    @Test func throwingValuesThrowTheFailureOnce() async {
        let publisher = Publishers.Sequence<[Int], TestError>(sequence: [1]).append(Fail(error: TestError("end")))
        var iterator = publisher.values.makeAsyncIterator()
        var outcome: [String] = []
        do {
            while let value = try await iterator.next() { outcome.append("value \(value)") }
            outcome.append("finished")
        } catch {
            outcome.append("threw \(error)")
        }
        #expect(outcome == ["value 1", "threw end"])
        #expect((try? await iterator.next()) == .some(nil))
    }

    @Test func taskCancellationEndsIterationAndCancelsTheSubscription() async {
        let log = DemandLog()
        let subject = PassthroughSubject<Int, Never>()
        let publisher = subject.logRequests(to: log)
        let task = Task { () -> Int? in
            var iterator = publisher.values.makeAsyncIterator()
            return await iterator.next()
        }
        task.cancel()
        #expect(await task.value == nil)
        #expect(log.entries.last == "cancel")
    }
}

/// Leaving the iteration and sharing one iterator between tasks.
@Suite(.timeLimit(.minutes(1))) struct AsyncPublisherIterationEndTests {
    @Test func leavingAForAwaitLoopWithBreakCancelsTheSubscription() async {
        let log = DemandLog()
        var seen: [Int] = []
        for await value in [1, 2, 3, 4].publisher.logRequests(to: log).values {
            seen.append(value)
            if value == 2 { break }
        }
        #expect(seen == [1, 2])
        #expect(log.entries == ["request max(1)", "request max(1)", "cancel"])
    }

    @Test func everyBrokenLoopEndsItsSubscription() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        let counts = Shared((subscribed: 0, cancelled: 0))
        let counted = subject.handleEvents(
            receiveSubscription: { _ in counts.mutate { $0.subscribed += 1 } },
            receiveCancel: { counts.mutate { $0.cancelled += 1 } })
        for _ in 0..<100 {
            for await _ in counted.values { break }
        }
        #expect(counts.value.subscribed == 100)
        #expect(counts.value.cancelled == 100)
    }

    @Test func droppingAnIteratorCopyKeepsTheSubscriptionUntilTheLastCopyGoes() {
        let publisher = ManualPublisher<Int, Never>()
        var first: AsyncPublisher<ManualPublisher<Int, Never>>.Iterator? = publisher.values.makeAsyncIterator()
        var second = first
        first = nil
        #expect(first == nil && publisher.log.entries.isEmpty)
        second = nil
        #expect(second == nil && publisher.log.entries == ["cancel"])
    }

    @Test func twoTasksWaitingOnOneIteratorBothGetAValue() async {
        let publisher = ManualPublisher<Int, Never>()
        let shared = SharedIterator(publisher.values.makeAsyncIterator())
        async let first = shared.next()
        async let second = shared.next()
        await waitUntil { publisher.log.entries.count == 2 }
        #expect(publisher.log.entries == ["request max(1)", "request max(1)"])
        #expect(publisher.send(10) == .none)
        #expect(publisher.send(20) == .none)
        let values = await [first, second]
        #expect(Set(values.compactMap { $0 }) == [10, 20])
    }

    @Test func theEndResumesEveryWaitingTaskWithNil() async {
        let publisher = ManualPublisher<Int, Never>()
        let shared = SharedIterator(publisher.values.makeAsyncIterator())
        async let first = shared.next()
        async let second = shared.next()
        await waitUntil { publisher.log.entries.count == 2 }
        publisher.send(completion: .finished)
        let values = await [first, second]
        #expect(values == [nil, nil])
    }

    @Test func aFailureGoesToOneWaitingTaskAndTheOthersEnd() async {
        let publisher = ManualPublisher<Int, TestError>()
        let shared = SharedThrowingIterator(publisher.values.makeAsyncIterator())
        async let first = shared.outcome()
        async let second = shared.outcome()
        await waitUntil { publisher.log.entries.count == 2 }
        publisher.send(completion: .failure(TestError("gone")))
        let outcomes = await [first, second]
        #expect(outcomes.sorted() == ["end", "threw gone"])
    }

    @Test func cancellingOneWaitingTaskEndsTheIterationForAll() async {
        let publisher = ManualPublisher<Int, Never>()
        let shared = SharedIterator(publisher.values.makeAsyncIterator())
        let cancelled = Task { await shared.next() }
        async let other = shared.next()
        await waitUntil { publisher.log.entries.count == 2 }
        cancelled.cancel()
        #expect(await cancelled.value == nil)
        #expect(await other == nil)
        #expect(publisher.log.entries == ["request max(1)", "request max(1)", "cancel"])
    }

    /// Yields until `condition` holds (each task's request lands after it starts waiting).
    private func waitUntil(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }
}

/// One iterator used by several tasks at once: each call works on a copy, and copies share the
/// subscription.
private final class SharedIterator<P: Publisher>: @unchecked Sendable where P.Failure == Never {
    private let iterator: AsyncPublisher<P>.Iterator
    init(_ iterator: AsyncPublisher<P>.Iterator) { self.iterator = iterator }
    func next() async -> P.Output? {
        var copy = iterator
        return await copy.next()
    }
}

/// `SharedIterator` for a publisher that can fail; `outcome()` renders what one call gave.
private final class SharedThrowingIterator<P: Publisher>: @unchecked Sendable {
    private let iterator: AsyncThrowingPublisher<P>.Iterator
    init(_ iterator: AsyncThrowingPublisher<P>.Iterator) { self.iterator = iterator }
    func outcome() async -> String {
        var copy = iterator
        do {
            return try await copy.next().map { "value \($0)" } ?? "end"
        } catch {
            return "threw \(error)"
        }
    }
}
