import Foundation
import LoopTestSupport
import Testing
import ViewModelKitSchedulers

@testable import LoopScheduler

@Suite(.serialized) struct LoopSchedulerTests {
    @Test func strideLiteralsMeanSeconds() {
        let one: MonotonicInstant.Stride = 1
        let half: MonotonicInstant.Stride = 0.5
        #expect(one.nanoseconds == 1_000_000_000)
        #expect(half.nanoseconds == 500_000_000)
        #expect(MonotonicInstant.Stride.milliseconds(3).nanoseconds == 3_000_000)
    }

    @Test func sameInstantActionsRunInSchedulingOrderAndNeverEarly() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        let date = scheduler.now.advanced(by: .milliseconds(2))
        var order: [Int] = []
        var early = 0
        for i in 0..<10 {
            scheduler.schedule(after: date) {
                if MonotonicInstant.now() < date { early += 1 }
                order.append(i)
            }
        }
        // Scheduled last but due first.
        scheduler.schedule(after: date.advanced(by: .microseconds(-500))) { order.append(-1) }
        scheduler.schedule(after: date.advanced(by: .milliseconds(1))) { loop.stop() }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        #expect(order == [-1] + Array(0..<10))
        #expect(early == 0)
        #expect(!watchdogFired.value)
        watchdog.cancel()
    }

    /// A repeating action with a zero (or 1 ns) interval is always due again: each tick waits for
    /// the next pass, so the loop's other timers still fire and `run()` can stop (it looped
    /// inside one timer callback for ever).
    @Test(arguments: [MonotonicInstant.Stride.zero, .nanoseconds(1)])
    func zeroIntervalRepeatingActionDoesNotHoldTheLoop(interval: MonotonicInstant.Stride) throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var ticks = 0
        let repeating = scheduler.schedule(after: scheduler.now, interval: interval) { ticks += 1 }
        var stopped = false
        let stopper = loop.scheduleTimer(after: .milliseconds(5)) {
            stopped = true
            loop.stop()
        }
        try loop.run()
        repeating.cancel()
        stopper.cancel()
        #expect(stopped)
        #expect(ticks >= 1)
    }

    /// Each pass runs a zero-interval action once: one `runOnce` gives one tick.
    @Test func zeroIntervalRepeatingActionTicksOncePerRunOnce() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var ticks = 0
        let repeating = scheduler.schedule(after: scheduler.now, interval: .zero) { ticks += 1 }
        defer { repeating.cancel() }
        var counts: [Int] = []
        for _ in 0..<3 {
            _ = loop.runOnce(blocking: true)
            counts.append(ticks)
        }
        #expect(counts == [1, 2, 3])
    }

    @Test func pastDeadlineRunsAsSoonAsPossible() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var ran = false
        scheduler.schedule(after: scheduler.now.advanced(by: -1)) { ran = true }
        loop.runOnce(blocking: true)
        #expect(ran)
    }

    @Test func scheduleFromFourThreadsRunsEverythingOnTheLoopInPerThreadOrder() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        let loopThread = pthread_self()
        let perThread = Shared<[[Int]]>(Array(repeating: [], count: 4))
        let offLoop = Shared(0)
        let total = Shared(0)
        let threads = (0..<4).map { t in
            TestThread {
                for i in 0..<100 {
                    scheduler.schedule {
                        if pthread_equal(pthread_self(), loopThread) == 0 { offLoop.mutate { $0 += 1 } }
                        perThread.mutate { $0[t].append(i) }
                        if total.mutate({
                            $0 += 1
                            return $0
                        }) == 400 {
                            loop.stop()
                        }
                    }
                }
            }
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        for thread in threads { thread.join() }
        #expect(total.value == 400)
        #expect(offLoop.value == 0)
        #expect(perThread.value.allSatisfy { $0 == Array(0..<100) })
        #expect(!watchdogFired.value)
        watchdog.cancel()
    }

    @Test func repeatingActionStopsWhenCancelled() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var count = 0
        var token: Cancellable?
        token = scheduler.schedule(after: scheduler.now, interval: .milliseconds(1)) {
            count += 1
            if count == 3 {
                token?.cancel()
                // Stop only after the cancel, several intervals later: however slow the machine,
                // a tick that survived the cancel would have had its turn by then.
                scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(5))) { loop.stop() }
            }
        }
        try loop.run()
        #expect(count == 3)
        _ = token
    }

    @Test func droppingTheRepeatingTokenCancels() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var count = 0
        do {
            _ = scheduler.schedule(after: scheduler.now, interval: .milliseconds(1)) { count += 1 }
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(5))) { loop.stop() }
        try loop.run()
        #expect(count == 0)
    }

    @Test func eventSourcesAreServicedAtTheEndOfTheIterationByFlushOrder() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var log: [String] = []
        let late = scheduler.scheduleEventSource(options: .init(flushOrder: 10)) {
            log.append("late \($0.mergedSignalCount)")
        }
        let early = scheduler.scheduleEventSource { log.append("early \($0.mergedSignalCount)") }
        scheduler.schedule {
            late.signal()
            early.signal()
            early.signal()
        }
        scheduler.schedule {}
        loop.runOnce(blocking: true)
        #expect(log == ["early 2", "late 1"])
        late.cancel()
        late.signal()
        loop.runOnce(blocking: false)
        #expect(log == ["early 2", "late 1"])
    }

    @Test func erasedLoopSchedulerKeepsTheFlushSources() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let erased: AnySchedulerOf<LoopScheduler> = LoopScheduler(loop: loop).eraseToAnyScheduler()
        var log: [String] = []
        let source = erased.scheduleEventSource { log.append("flush \($0.mergedSignalCount)") }
        erased.schedule {
            log.append("action")
            source.signal()
            source.signal()
        }
        loop.runOnce(blocking: true)
        #expect(log == ["action", "flush 2"])
    }
}
