import LoopTestSupport
import Testing
import ViewModelKit

@Suite struct AsyncSequencePublisherTests {
    /// Subscribes `recorder` and waits for its completion.
    private func runToCompletion<P: Publisher>(_ publisher: P, _ recorder: Recorder<P.Output, P.Failure>) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            recorder.onCompletion = { continuation.resume() }
            publisher.subscribe(recorder)
        }
    }

    @Test func publishesElementsThenFinishes() async {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        let recorder = Recorder<Int, Never>()
        await runToCompletion(stream.publisher, recorder)
        #expect(recorder.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }

    @Test func iterationFailureBecomesAFailure() async {
        let stream = AsyncThrowingStream<Int, any Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: TestError("stream"))
        }
        let recorder = Recorder<Int, any Error>()
        await runToCompletion(stream.publisher, recorder)
        #expect(rendered(recorder.events) == ["subscription", "value(1)", "failure(stream)"])
    }

    @Test func pullsOnlyWhatWasRequested() async {
        let pulls = Counter()
        let recorder = Recorder<Int, Never>(initialDemand: .max(2))
        let sequence = CountingSequence(limit: 5, pulls: pulls)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            recorder.onValue = { value in if value == 2 { continuation.resume() } }
            sequence.publisher.subscribe(recorder)
        }
        // The iteration waits for demand before pulling again: exactly two pulls so far.
        #expect(pulls.value == 2)
        recorder.onValue = nil
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            recorder.onCompletion = { continuation.resume() }
            recorder.request(.unlimited)
        }
        #expect(recorder.values == [1, 2, 3, 4, 5])
        #expect(recorder.events.last == .finished)
        #expect(pulls.value == 6)
    }

    @Test func cancelEndsTheIterationAndDeliversNothingMore() async {
        let recorder = Recorder<Int, Never>()
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let ended = EndSignal()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            ended.onEnd = { done.resume() }
            ObservedSequence(stream: stream, ended: ended).publisher.subscribe(recorder)
            recorder.cancel()
        }
        // The iterating task has released its iterator: the iteration is over.
        continuation.yield(1)
        continuation.finish()
        #expect(recorder.events == [.subscription])
    }
}

/// Calls `onEnd` once, when an `ObservedSequence` iterator is released.
private final class EndSignal: @unchecked Sendable {
    var onEnd: (() -> Void)?
}

/// Wraps an `AsyncStream`; its iterator reports its own release, so a test can wait for the
/// iteration to end without sleeping.
private struct ObservedSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let stream: AsyncStream<Int>
    let ended: EndSignal

    final class Iterator: AsyncIteratorProtocol {
        private var base: AsyncStream<Int>.Iterator
        private let ended: EndSignal
        init(base: AsyncStream<Int>.Iterator, ended: EndSignal) {
            self.base = base
            self.ended = ended
        }
        deinit { ended.onEnd?() }
        func next() async -> Int? { await base.next() }
    }

    func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator(), ended: ended) }
}

/// An async sequence of 1...limit that counts how many times `next()` was called.
private struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let limit: Int
    let pulls: Counter

    struct Iterator: AsyncIteratorProtocol {
        let limit: Int
        let pulls: Counter
        mutating func next() async -> Int? {
            let count = pulls.next()
            return count <= limit ? count : nil
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(limit: limit, pulls: pulls) }
}
