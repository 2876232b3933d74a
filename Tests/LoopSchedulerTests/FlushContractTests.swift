import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// One test (or more) per guarantee of the iteration contract in docs/ARCHITECTURE.md.
@Suite(.serialized) struct FlushContractTests {
    /// Guarantee 1 (once) and 2 (after the callbacks, before blocking): timers, descriptors and
    /// `execute` work ready in one iteration signal 8 times; one handler call merges all 8 and it
    /// comes last.
    @Test func onceAndAfterTheIterationsCallbacks() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let pipe = TestPipe()
        pipe.writeByte()
        var log: [String] = []
        let source = loop.makeEventSource { source in
            log.append("flush \(source.mergedSignalCount)")
        }
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            log.append("timer")
            source.signal()
        }
        let reader = loop.watch(fd: pipe.readEnd, events: .read) { _ in
            pipe.readByte()
            log.append("io")
            source.signal()
        }
        let jobLog = Shared<Int>(0)
        for _ in 0..<3 {
            loop.execute {
                jobLog.mutate { $0 += 1 }
                source.signal()
                source.signal()
            }
        }
        #expect(loop.runOnce(blocking: true))
        #expect(jobLog.value == 3)
        #expect(log.count == 3)
        #expect(Set(log.prefix(2)) == ["timer", "io"])
        #expect(log.last == "flush 8")
        #expect(loop.completedFlushCount == 1)
        // Nothing more to deliver.
        #expect(loop.runOnce(blocking: false))
        #expect(log.count == 3)
        timer.cancel()
        reader.cancel()
    }

    /// Guarantee 2 (before blocking): a signal from the last callback is delivered before `run()`
    /// would sleep; the handler stops the loop, so a missing flush shows as the watchdog firing.
    @Test func deliveredBeforeTheLoopBlocks() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var delivered = 0
        let source = loop.makeEventSource { _ in
            delivered += 1
            loop.stop()
        }
        let timer = loop.scheduleTimer(after: .milliseconds(1)) { source.signal() }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        #expect(delivered == 1)
        #expect(!watchdogFired.value)
        timer.cancel()
        watchdog.cancel()
    }

    /// Guarantee 3: signals raised during the flush (by the handler itself and for a source that
    /// was already serviced) are served in the next iteration, which does not block first.
    @Test func signalDuringFlushRunsNextIterationWithoutBlocking() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var log: [String] = []
        var sourceB: LoopEventSource?
        let sourceA = loop.makeEventSource(order: 1) { source in
            log.append("A\(source.mergedSignalCount)")
            if log.count == 2 {
                source.signal()
                sourceB?.signal()
            }
        }
        sourceB = loop.makeEventSource(order: 0) { source in
            log.append("B\(source.mergedSignalCount)")
        }
        sourceA.signal()
        sourceB?.signal()
        #expect(loop.runOnce(blocking: false))
        #expect(log == ["B1", "A1"])
        // The next iteration must not block: only a 10 s watchdog could otherwise wake it.
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        #expect(loop.runOnce(blocking: true))
        #expect(!watchdogFired.value)
        #expect(log == ["B1", "A1", "B1", "A1"])
        #expect(loop.completedFlushCount == 2)
        watchdog.cancel()
    }

    /// Guarantee 3, livelock half: a handler that always re-signals itself gets exactly one call
    /// per iteration.
    @Test func selfResignallingHandlerGetsOneCallPerIteration() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var calls = 0
        let source = loop.makeEventSource { source in
            calls += 1
            source.signal()
        }
        source.signal()
        for iteration in 1...5 {
            loop.runOnce(blocking: true)
            #expect(calls == iteration)
        }
        source.cancel()
        loop.runOnce(blocking: false)
        #expect(calls == 5)
    }

    /// Guarantee 4: 4 threads × 1,000 signals while the loop is not running merge into exactly
    /// one handler call with a merged count of 4,000.
    @Test func fourThousandSignalsFromFourThreadsMergeIntoOneCall() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var calls: [Int] = []
        let source = loop.makeEventSource { source in calls.append(source.mergedSignalCount) }
        let start = DispatchSemaphore(value: 0)
        let threads = (0..<4).map { _ in
            TestThread {
                start.wait()
                for _ in 0..<1_000 { source.signal() }
            }
        }
        for _ in threads { start.signal() }
        for thread in threads { thread.join() }
        #expect(source.mergedSignalCount == 4_000)
        loop.runOnce(blocking: false)
        #expect(calls == [4_000])
    }

    /// Guarantee 4 with the loop asleep in `run()`: signals from 4 threads wake it, are served on
    /// the loop thread and the merged counts add up to exactly 4,000.
    @Test func signalsFromFourThreadsWakeARunningLoopAndConserveTheCount() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let loopThread = pthread_self()
        var calls = 0
        var total = 0
        var offThread = 0
        let source = loop.makeEventSource { source in
            calls += 1
            total += source.mergedSignalCount
            if pthread_equal(pthread_self(), loopThread) == 0 { offThread += 1 }
            if total == 4_000 { loop.stop() }
        }
        let asleep = DispatchSemaphore(value: 0)
        let kick = loop.scheduleTimer(after: .nanoseconds(0)) {
            for _ in 0..<4 { asleep.signal() }
        }
        let threads = (0..<4).map { _ in
            TestThread {
                asleep.wait()
                for _ in 0..<1_000 { source.signal() }
            }
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        for thread in threads { thread.join() }
        #expect(!watchdogFired.value)
        #expect(total == 4_000)
        #expect(calls >= 1 && calls <= 4_000)
        #expect(offThread == 0)
        kick.cancel()
        watchdog.cancel()
    }

    /// Guarantee 5, descriptor starvation: a descriptor that is always readable keeps the normal
    /// priority busy on every poll; the flush still runs within the bounded delay.
    ///
    /// What makes it a test of the bound: the flush comes while the busy callbacks still run, and
    /// not before `maximumFlushDelay` has passed since the loop started (so it was the
    /// bounded-delay timer that served it: the flush's own queue never got a turn).
    @Test func boundedDelayUnderAnAlwaysReadyDescriptor() throws {
        let delay = MonotonicInstant.Stride.milliseconds(2)
        let loop = try EventLoop(maximumFlushDelay: delay)
        defer { loop.shutdown() }
        let pipe = TestPipe()
        pipe.writeByte()  // never drained: readable forever
        var busyCalls = 0
        var busyCallsAtFlush: Int?
        var flushedAt: MonotonicInstant?
        let source = loop.makeEventSource { _ in
            flushedAt = .now()
            busyCallsAtFlush = busyCalls
            loop.stop()
        }
        let busy = loop.watch(fd: pipe.readEnd, events: .read) { _ in
            busyCalls += 1
            if busyCalls == 1 { source.signal() }
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        // libevent arms the deadline from its cached time, which is no earlier than this.
        let started = MonotonicInstant.now()
        try loop.run()
        #expect(!watchdogFired.value)
        #expect(busyCallsAtFlush != nil)
        #expect((busyCallsAtFlush ?? 0) > 1)
        if let flushedAt { #expect(started.distance(to: flushedAt) >= delay) }
        #expect(busy.isActive)
        busy.cancel()
        watchdog.cancel()
    }

    /// Guarantee 5, work that re-queues itself forever inside one priority queue: the capped
    /// number of callbacks per pass lets the loop poll again, the deadline timer is seen and the
    /// flush still runs.
    ///
    /// What makes it a test of the bound: the work spins inside one libevent pass, so if the cap
    /// were missing no timer (not even the watchdog) would ever be seen. The spin therefore gives
    /// up by itself after 5 s, and the test fails (rather than hangs) if the flush only came after
    /// that. The flush must also come while the work still spins, and not before
    /// `maximumFlushDelay` (the flush's own queue never got a turn: the deadline timer served it).
    @Test func boundedDelayUnderSelfRequeueingWork() throws {
        let delay = MonotonicInstant.Stride.milliseconds(2)
        let loop = try EventLoop(maximumFlushDelay: delay)
        defer { loop.shutdown() }
        let keepGoing = Shared(true)
        let flushed = Shared(false)
        let gaveUp = Shared(false)
        let spins = Shared(0)
        let spinsAtFlush = Shared(0)
        let flushedAt = Shared<MonotonicInstant?>(nil)
        let giveUpAt = MonotonicInstant.now().advanced(by: .seconds(5))
        let source = loop.makeEventSource { _ in
            flushedAt.value = .now()
            spinsAtFlush.value = spins.value
            flushed.value = true
            keepGoing.value = false
            loop.stop()
        }
        @Sendable func spin() {
            guard keepGoing.value else { return }
            spins.mutate { $0 += 1 }
            if MonotonicInstant.now() < giveUpAt {
                loop.execute(spin)
            } else {
                gaveUp.value = true
            }
        }
        // libevent arms the deadline from its cached time, which is no earlier than this.
        let started = MonotonicInstant.now()
        loop.execute {
            source.signal()
            spin()
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        #expect(flushed.value)
        #expect(!gaveUp.value)
        #expect(spinsAtFlush.value > 1)
        if let at = flushedAt.value { #expect(started.distance(to: at) >= delay) }
        #expect(!watchdogFired.value)
        watchdog.cancel()
    }

    /// Guarantee 6: sources are serviced by ascending order, then creation order, whatever the
    /// order of their signals.
    @Test func deterministicOrderByOrderThenCreation() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var log: [String] = []
        let specs: [(String, Int)] = [("a", 5), ("b", 0), ("c", 5), ("d", -1), ("e", 0)]
        let sources = specs.map { name, order in
            loop.makeEventSource(order: order) { _ in log.append(name) }
        }
        for source in sources.reversed() { source.signal() }
        loop.runOnce(blocking: false)
        #expect(log == ["d", "b", "e", "a", "c"])
        log = []
        sources[2].signal()
        sources[0].signal()
        sources[3].signal()
        loop.runOnce(blocking: false)
        #expect(log == ["d", "a", "c"])
    }

    /// Nothing is delivered after `cancel()`, even when the source was signalled and another
    /// source's handler cancels it during the same flush.
    @Test func nothingDeliveredAfterCancelOrDeinit() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var log: [String] = []
        var victim: LoopEventSource?
        let killer = loop.makeEventSource(order: 0) { _ in
            log.append("killer")
            victim?.cancel()
        }
        victim = loop.makeEventSource(order: 1) { _ in log.append("victim") }
        killer.signal()
        victim?.signal()
        loop.runOnce(blocking: false)
        #expect(log == ["killer"])
        victim?.signal()
        loop.runOnce(blocking: false)
        #expect(log == ["killer"])

        var dropped: LoopEventSource? = loop.makeEventSource { _ in log.append("dropped") }
        dropped?.signal()
        dropped = nil
        loop.runOnce(blocking: false)
        #expect(log == ["killer"])
        _ = dropped
    }
}

/// The flush's bookkeeping: the batch is sorted only when needed, merged counts stay exact with
/// the lock-free signal path, and cancel or drop inside a pass stops later deliveries of it.
@Suite(.serialized) struct FlushBookkeepingTests {
    /// Guarantee 6 across passes: an in-order pass, a reversed one, then one with a single
    /// latecomer out of order; the out-of-order mark of one pass never leaks into the next.
    @Test func orderHoldsWhateverTheSignalOrderOfEachPass() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var log: [Int] = []
        let sources = (0..<6).map { index in
            loop.makeEventSource(order: index % 2) { _ in log.append(index) }
        }
        for source in sources { source.signal() }
        loop.runOnce(blocking: false)
        #expect(log == [0, 2, 4, 1, 3, 5])
        log = []
        for source in sources.reversed() { source.signal() }
        loop.runOnce(blocking: false)
        #expect(log == [0, 2, 4, 1, 3, 5])
        log = []
        sources[1].signal()
        sources[3].signal()
        sources[0].signal()
        loop.runOnce(blocking: false)
        #expect(log == [0, 1, 3])
        log = []
        sources[4].signal()
        sources[5].signal()
        loop.runOnce(blocking: false)
        #expect(log == [4, 5])
    }

    /// Signals outside, inside and after the handler are counted exactly; after `cancel()` the
    /// count reads 0 and further signals are ignored.
    @Test func mergedCountsAreExactAcrossPassesAndCancel() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var seen: [Int] = []
        var outsideDuringHandler: [Int] = []
        let other = loop.makeEventSource(order: 1) { source in seen.append(100 + source.mergedSignalCount) }
        let source = loop.makeEventSource(order: 0) { source in
            seen.append(source.mergedSignalCount)
            outsideDuringHandler.append(other.mergedSignalCount)
            if seen.count == 1 {
                source.signal()
                source.signal()
                source.signal()
                // Still the count of this call while it runs.
                seen.append(source.mergedSignalCount)
            }
        }
        for _ in 0..<5 { source.signal() }
        other.signal()
        other.signal()
        #expect(source.mergedSignalCount == 5)
        loop.runOnce(blocking: false)
        #expect(seen == [5, 5, 102])
        // The other source's batch count is visible to an earlier handler of the same pass.
        #expect(outsideDuringHandler == [2])
        #expect(source.mergedSignalCount == 3)
        loop.runOnce(blocking: false)
        #expect(seen == [5, 5, 102, 3])
        source.signal()
        source.cancel()
        #expect(source.mergedSignalCount == 0)
        source.signal()
        #expect(source.mergedSignalCount == 0)
        loop.runOnce(blocking: false)
        #expect(seen == [5, 5, 102, 3])
        #expect(loop.completedFlushCount == 2)
    }

    /// A queued source whose last reference an earlier handler of the same pass drops is not
    /// called (its deinit cancelled it), and its handler is released.
    @Test func sourceDroppedByAnEarlierHandlerIsNotCalled() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        final class Token {}
        var log: [String] = []
        weak var weakToken: Token?
        var victim: LoopEventSource?
        do {
            let token = Token()
            weakToken = token
            victim = loop.makeEventSource(order: 1) { _ in
                withExtendedLifetime(token) { log.append("victim") }
            }
        }
        let killer = loop.makeEventSource(order: 0) { _ in
            log.append("killer")
            victim = nil
        }
        victim?.signal()
        killer.signal()
        loop.runOnce(blocking: false)
        #expect(log == ["killer"])
        #expect(weakToken == nil)
        #expect(victim == nil)
    }
}
