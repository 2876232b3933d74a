import Foundation
import LoopTestSupport
import Synchronization
import Testing
import ViewModelKit

/// A subscriber attached while another thread completes the publisher gets its subscription
/// first and then the completion, never the completion alone or before the subscription
/// (Combine's rule: `receive(subscription:)` comes before anything else).
///
/// Each round lines two threads up on a spin barrier, then one subscribes and the other ends the
/// publisher, so the two calls overlap as closely as the machine allows. The round count is
/// fixed; the race window was a few instructions wide, and this many aligned rounds hit it
/// many times on the code that had it.
@Suite struct SubscribeRacingCompletionTests {
    static let rounds = 10_000

    @Test func aSubjectsCompletionNeverOvertakesTheSubscription() {
        let subjects = (0..<Self.rounds).map { _ in CurrentValueSubject<Int, Never>(0) }
        let recorders = (0..<Self.rounds).map { _ in Recorder<Int, Never>(initialDemand: nil) }
        race(
            Self.rounds,
            subscribe: { subjects[$0].subscribe(recorders[$0]) },
            end: { subjects[$0].send(completion: .finished) })
        let wrong = recorders.filter { $0.events != [.subscription, .finished] }
        let firstWrong = wrong.first.map { "\($0.events)" } ?? "none"
        let wrongRounds = wrong.count
        #expect(wrongRounds == 0, "first of the wrong rounds: \(firstWrong)")
    }

    @Test func aSinkOnASubjectFinishingOnAnotherThreadAlwaysGetsTheCompletion() {
        let subjects = (0..<Self.rounds).map { _ in CurrentValueSubject<Int, Never>(0) }
        let completions = Shared(0)
        let tokens = Shared<[AnyCancellable]>([])
        race(
            Self.rounds,
            subscribe: { round in
                let token = subjects[round].sink(
                    receiveCompletion: { _ in completions.mutate { $0 += 1 } }, receiveValue: { _ in })
                tokens.mutate { $0.append(token) }
            },
            end: { subjects[$0].send(completion: .finished) })
        #expect(completions.value == Self.rounds)
        for token in tokens.value { token.cancel() }
    }

    /// A completion sent while another thread is inside `receive(_:)` waits for it and is then
    /// delivered (it used to find the subscriber already released, as after a cancel).
    @Test func aCompletionSentDuringADeliveryOnAnotherThreadStillArrives() {
        let subjects = (0..<Self.rounds).map { _ in PassthroughSubject<Int, Never>() }
        let recorders = (0..<Self.rounds).map { _ in Recorder<Int, Never>() }
        for (subject, recorder) in zip(subjects, recorders) { subject.subscribe(recorder) }
        race(
            Self.rounds,
            subscribe: { subjects[$0].send(1) },
            end: { subjects[$0].send(completion: .finished) })
        let wrong = recorders.filter {
            $0.events != [.subscription, .value(1), .finished] && $0.events != [.subscription, .finished]
        }
        let firstWrong = wrong.first.map { "\($0.events)" } ?? "none"
        let wrongRounds = wrong.count
        #expect(wrongRounds == 0, "first of the wrong rounds: \(firstWrong)")
    }

    @Test func aFuturesFailureNeverOvertakesTheSubscription() {
        let promises = (0..<Self.rounds).map { _ in Shared<Future<Int, TestError>.Promise?>(nil) }
        let futures = (0..<Self.rounds).map { round in
            Future<Int, TestError> { promise in promises[round].value = promise }
        }
        let recorders = (0..<Self.rounds).map { _ in Recorder<Int, TestError>(initialDemand: nil) }
        race(
            Self.rounds,
            subscribe: { futures[$0].subscribe(recorders[$0]) },
            end: { promises[$0].value?(.failure(TestError("failed"))) })
        let wrong = recorders.filter { $0.events != [.subscription, .failure(TestError("failed"))] }
        let firstWrong = wrong.first.map { "\($0.events)" } ?? "none"
        let wrongRounds = wrong.count
        #expect(wrongRounds == 0, "first of the wrong rounds: \(firstWrong)")
    }

    /// Sink's own rule, as Combine's: a completion sent before any subscription reaches the
    /// closure once; anything after it is ignored, and a later subscription is cancelled.
    @Test func aSinkDeliversACompletionThatComesBeforeItsSubscription() {
        let seen = Shared<[String]>([])
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in seen.mutate { $0.append("finished") } },
            receiveValue: { value in seen.mutate { $0.append("value \(value)") } })
        #expect(sink.receive(1) == .none)
        sink.receive(completion: .finished)
        sink.receive(completion: .finished)
        #expect(sink.receive(2) == .none)
        let log = DemandLog()
        sink.receive(subscription: LoggingSubscription(log))
        #expect(seen.value == ["value 1", "finished"])
        #expect(log.entries == ["cancel"])
    }

    /// Runs `subscribe(i)` and `end(i)` on two threads for each round `i`, the two threads
    /// meeting at a spin barrier before each round.
    private func race(
        _ rounds: Int, subscribe: @escaping @Sendable (Int) -> Void, end: @escaping @Sendable (Int) -> Void
    ) {
        let arrived = Arrivals()
        let subscriber = TestThread {
            for round in 0..<rounds {
                arrived.meet(round)
                subscribe(round)
            }
        }
        let ender = TestThread {
            for round in 0..<rounds {
                arrived.meet(round)
                end(round)
            }
        }
        subscriber.join()
        ender.join()
    }
}

/// A two-thread barrier reused round after round: `meet(round)` returns once both threads have
/// reached that round.
private final class Arrivals: Sendable {
    private let count = Atomic<Int>(0)

    func meet(_ round: Int) {
        count.add(1, ordering: .sequentiallyConsistent)
        while count.load(ordering: .sequentiallyConsistent) < 2 * (round + 1) {
            sched_yield()
        }
    }
}
