import Foundation
import LoopTestSupport
import Testing
import ViewModelKitSchedulers

@testable import LoopScheduler

@Suite struct TestSchedulerTests {
    typealias Instant = MonotonicInstant

    @Test func startsAtTheGivenInstantAndDefaultsToZero() {
        #expect(TestScheduler().now == Instant(nanoseconds: 0))
        #expect(TestScheduler(now: Instant(nanoseconds: 42)).now == Instant(nanoseconds: 42))
    }

    @Test func advanceRunsDueActionsWithNowAtEachDeadline() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: 3)) { log.append("c@\(scheduler.now.nanoseconds)") }
        scheduler.schedule(after: scheduler.now.advanced(by: 1)) { log.append("a@\(scheduler.now.nanoseconds)") }
        scheduler.schedule(after: scheduler.now.advanced(by: 2)) { log.append("b@\(scheduler.now.nanoseconds)") }
        scheduler.advance(by: .milliseconds(1_999))
        #expect(log == ["a@1000000000"])
        #expect(scheduler.now == Instant(nanoseconds: 1_999_000_000))
        scheduler.advance(by: 1)
        #expect(log == ["a@1000000000", "b@2000000000"])
        scheduler.advance(to: Instant(nanoseconds: 3_000_000_000))
        #expect(log == ["a@1000000000", "b@2000000000", "c@3000000000"])
    }

    @Test func sameDeadlineIsFirstInFirstOut() {
        let scheduler = TestScheduler()
        var order: [Int] = []
        for i in 0..<5 { scheduler.schedule(after: scheduler.now.advanced(by: 1)) { order.append(i) } }
        scheduler.schedule { order.append(-1) }
        scheduler.advance(by: 1)
        #expect(order == [-1, 0, 1, 2, 3, 4])
    }

    @Test func repeatingActionKeepsItsTurnAndStopsOnCancel() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let token = scheduler.schedule(after: scheduler.now.advanced(by: 2), interval: 2) {
            log.append("tick@\(scheduler.now.nanoseconds / 1_000_000_000)")
            if scheduler.now == Instant(nanoseconds: 2_000_000_000) {
                // Scheduled later for the same instant as the next tick: runs after it.
                scheduler.schedule(after: scheduler.now.advanced(by: 2)) { log.append("late@4") }
            }
        }
        scheduler.schedule(after: scheduler.now.advanced(by: 4)) { log.append("once@4") }
        scheduler.advance(by: 6)
        #expect(log == ["tick@2", "tick@4", "once@4", "late@4", "tick@6"])
        token.cancel()
        scheduler.advance(by: 10)
        #expect(log == ["tick@2", "tick@4", "once@4", "late@4", "tick@6"])
        #expect(scheduler.pendingActionCount == 0)
    }

    @Test func workScheduledDuringAdvanceInsideTheWindowRunsInTheSameCall() {
        let scheduler = TestScheduler()
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: 1)) {
            log.append("first")
            scheduler.schedule(after: scheduler.now.advanced(by: 1)) { log.append("inside") }
            scheduler.schedule(after: scheduler.now.advanced(by: 5)) { log.append("outside") }
            scheduler.schedule { log.append("now") }
        }
        scheduler.advance(by: 3)
        #expect(log == ["first", "now", "inside"])
        #expect(scheduler.pendingActionCount == 1)
    }

    @Test func pastDeadlinesRunAtNowAndTimeNeverGoesBack() {
        let scheduler = TestScheduler(now: Instant(nanoseconds: 10_000_000_000))
        var seen: [Int64] = []
        scheduler.schedule(after: Instant(nanoseconds: 1)) { seen.append(scheduler.now.nanoseconds) }
        scheduler.advance(to: Instant(nanoseconds: 5))
        #expect(seen == [10_000_000_000])
        #expect(scheduler.now == Instant(nanoseconds: 10_000_000_000))
        scheduler.advance(by: -5)
        #expect(scheduler.now == Instant(nanoseconds: 10_000_000_000))
    }

    /// The promise: an action scheduled for an instant already past runs at the current virtual
    /// time, in its turn after what was already due then, and the clock never goes back.
    @Test func anActionScheduledInThePastRunsAtTheCurrentVirtualTime() {
        let scheduler = TestScheduler(now: Instant(nanoseconds: 10_000_000_000))
        var log: [String] = []
        scheduler.schedule { log.append("due now@\(scheduler.now.nanoseconds)") }
        scheduler.schedule(after: Instant(nanoseconds: 5_000_000_000)) {
            log.append("past@\(scheduler.now.nanoseconds)")
        }
        scheduler.schedule(after: Instant(nanoseconds: 1)) { log.append("long past@\(scheduler.now.nanoseconds)") }
        scheduler.advance()
        #expect(log == ["due now@10000000000", "past@10000000000", "long past@10000000000"])
        #expect(scheduler.now == Instant(nanoseconds: 10_000_000_000))
    }

    @Test func runDrainsFiniteWorkAndStopsAtTheLimitForNeverEndingTimers() {
        let scheduler = TestScheduler()
        var count = 0
        scheduler.schedule(after: scheduler.now.advanced(by: 5)) { count += 1 }
        scheduler.schedule(after: scheduler.now.advanced(by: 7)) { count += 1 }
        #expect(scheduler.run() == .drained)
        #expect(count == 2)
        #expect(scheduler.now == Instant(nanoseconds: 7_000_000_000))

        var ticks = 0
        let token = scheduler.schedule(after: scheduler.now, interval: 1) { ticks += 1 }
        #expect(scheduler.run(limit: 50) == .stoppedAtLimit(pending: 1))
        #expect(ticks == 50)
        #expect(scheduler.now == Instant(nanoseconds: 56_000_000_000))
        token.cancel()
        #expect(scheduler.run() == .drained)
    }

    @Test func eventSourcesAreServicedOnTheNextAdvanceAtNow() {
        let scheduler = TestScheduler()
        var log: [String] = []
        let second = scheduler.scheduleEventSource(options: .init(flushOrder: 1)) {
            log.append("second \($0.mergedSignalCount)@\(scheduler.now.nanoseconds)")
        }
        let first = scheduler.scheduleEventSource {
            log.append("first \($0.mergedSignalCount)@\(scheduler.now.nanoseconds)")
        }
        second.signal()
        first.signal()
        first.signal()
        #expect(first.mergedSignalCount == 2)
        #expect(log.isEmpty)
        scheduler.advance()
        #expect(log == ["first 2@0", "second 1@0"])

        // Changes made by actions at one instant are serviced after the last action of that instant.
        log = []
        scheduler.schedule(after: Instant(nanoseconds: 5)) { first.signal() }
        scheduler.schedule(after: Instant(nanoseconds: 5)) {
            first.signal()
            log.append("action@5")
        }
        scheduler.schedule(after: Instant(nanoseconds: 9)) { log.append("action@9") }
        scheduler.advance(by: .nanoseconds(20))
        #expect(log == ["action@5", "first 2@5", "action@9"])
    }

    @Test func signalFromAHandlerWaitsForTheNextServicePointAndCancelStopsDelivery() {
        let scheduler = TestScheduler()
        var calls = 0
        let source = scheduler.scheduleEventSource { source in
            calls += 1
            source.signal()
        }
        source.signal()
        scheduler.advance()
        #expect(calls == 1)
        scheduler.advance()
        #expect(calls == 2)
        source.cancel()
        scheduler.advance()
        #expect(calls == 2)
    }

    @Test func scheduleFromOtherThreadsIsSafeAndRunsOnTheAdvancingThread() {
        let scheduler = TestScheduler()
        let here = pthread_self()
        let ran = Shared(0)
        let offThread = Shared(0)
        let threads = (0..<4).map { _ in
            TestThread {
                for _ in 0..<250 {
                    scheduler.schedule(after: scheduler.now.advanced(by: 1)) {
                        ran.mutate { $0 += 1 }
                        if pthread_equal(pthread_self(), here) == 0 { offThread.mutate { $0 += 1 } }
                    }
                }
            }
        }
        for thread in threads { thread.join() }
        scheduler.advance(by: 1)
        #expect(ran.value == 1_000)
        #expect(offThread.value == 0)
    }

    @Test func erasesToAnySchedulerOfLoopScheduler() {
        let test = TestScheduler()
        let scheduler: AnySchedulerOf<LoopScheduler> = test.eraseToAnyScheduler()
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: 2)) { log.append("timer") }
        let source = scheduler.scheduleEventSource { log.append("flush \($0.mergedSignalCount)") }
        source.signal()
        source.signal()
        test.advance(by: 2)
        #expect(log == ["flush 2", "timer"])
        #expect(scheduler.now == MonotonicInstant(nanoseconds: 2_000_000_000))
    }
}
