import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// `run()`/`runOnce` against `stop()`: a stop request is consumed exactly once, never lost, and
/// one `runOnce` is one iteration.
@Suite(.serialized) struct RunStopTests {
    /// Bug 2: `runOnce` read the stop flag, then its exit path cleared it unconditionally, wiping a
    /// `stop()` from another thread that landed in between; `while loop.runOnce(...) {}` then
    /// never ended. Each attempt spins non-blocking iterations while another thread stops the
    /// loop at a slightly different moment; every attempt must end, within 2 s of wall time
    /// (generous: a stop that is not lost ends the spin in microseconds).
    @Test func stopFromAnotherThreadIsNeverLostByRunOnce() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let go = DispatchSemaphore(value: 0)
        let attempts = 20_000
        let helper = TestThread {
            for attempt in 0..<attempts {
                go.wait()
                // A varying delay, so that the stop lands at every point of an iteration.
                var spin = 0
                while spin < (attempt * 7919) % 5000 { spin += 1 }
                loop.stop()
            }
        }
        var lost = 0
        for _ in 0..<attempts {
            go.signal()
            let giveUp = MonotonicInstant.now().advanced(by: .seconds(2))
            var ended = false
            while !ended {
                if !loop.runOnce(blocking: false) {
                    ended = true
                } else if MonotonicInstant.now() > giveUp {
                    break
                }
            }
            if !ended {
                lost += 1
                break  // one is enough; the helper is still waiting for `go`
            }
        }
        #expect(lost == 0)
        if lost > 0 {
            // Release the helper so the thread ends.
            for _ in 0..<attempts { go.signal() }
        }
        helper.join()
    }

    /// The request is consumed exactly once: a stop before `runOnce` ends that one call, and the
    /// next call is not affected by it.
    @Test func aStopIsConsumedByExactlyOneRunOnce() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        loop.stop()
        #expect(!loop.runOnce(blocking: false))
        #expect(loop.runOnce(blocking: false))
        loop.stop()
        loop.stop()  // merges with the first: one request
        #expect(!loop.runOnce(blocking: true))
        #expect(loop.runOnce(blocking: false))
    }

    /// A stop that arrives after `run()` broke out is kept for the next run (not lost, not
    /// cleared): that run returns after its first iteration.
    @Test func aStopAfterRunReturnedEndsTheNextRun() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        loop.execute { loop.stop() }
        try loop.run()
        loop.stop()
        let ran = Shared(0)
        loop.execute { ran.mutate { $0 += 1 } }
        try loop.run()
        #expect(ran.value == 1)
    }
}

extension RunStopTests {
    /// Bug 2, deterministically: a `stop()` landing between the end of `runOnce`'s iteration and
    /// its exit (where another thread's stop raced before the fix) ends the next `runOnce`.
    @Test func aStopLandingAsRunOnceExitsEndsTheNextRunOnce() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        loop.exitHookForTesting = { loop.stop() }
        #expect(loop.runOnce(blocking: false))
        loop.exitHookForTesting = nil
        #expect(!loop.runOnce(blocking: false))
        #expect(loop.runOnce(blocking: false))
    }

    /// Bug 6: a handler of the flush (an `updateView()`) that queues work which signals its
    /// source again ("mark as seen after drawing") gets one call per `runOnce`: the work queued
    /// during the flush belongs to the next iteration. Before the fix one call never returned (the
    /// handler stops the loop after 100 calls so that the failure is a count, not a hang).
    @Test func workQueuedByAFlushHandlerRunsInTheNextRunOnce() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var calls = 0
        var work = 0
        let source = loop.makeEventSource { source in
            calls += 1
            if calls >= 100 { loop.stop() }
            loop.enqueue {
                work += 1
                source.signal()
            }
        }
        source.signal()
        #expect(loop.runOnce(blocking: true))
        #expect(calls == 1)
        #expect(work == 0)
        #expect(loop.runOnce(blocking: true))
        #expect(calls == 2)
        #expect(work == 1)
        // The same through LoopScheduler.schedule, the way view code reaches the loop.
        let scheduler = LoopScheduler(loop: loop)
        var drawn = 0
        let view = scheduler.scheduleEventSource(options: nil) { view in
            drawn += 1
            if drawn >= 100 { loop.stop() }
            scheduler.schedule { view.signal() }
        }
        source.cancel()
        view.signal()
        loop.runOnce(blocking: true)
        loop.runOnce(blocking: true)
        loop.runOnce(blocking: true)
        #expect(drawn == 3)
    }

    /// Work that re-queues itself for ever (and signals nothing) cannot hold one `runOnce` for
    /// ever either: the iteration ends with a flush pass no later than about
    /// `maximumFlushDelay` after the work started (guarantee 5's deadline).
    @Test func selfRequeueingWorkDoesNotHoldRunOnceForEver() throws {
        let loop = try EventLoop(maximumFlushDelay: .milliseconds(2))
        defer { loop.shutdown() }
        let giveUpAt = MonotonicInstant.now().advanced(by: .seconds(5))
        var spins = 0
        var gaveUp = false
        func spin() {
            spins += 1
            if MonotonicInstant.now() < giveUpAt {
                loop.enqueue(spin)
            } else {
                gaveUp = true
            }
        }
        loop.enqueue(spin)
        loop.runOnce(blocking: true)
        #expect(!gaveUp)
        #expect(spins > 1)
        // The next call carries on with the work that is still queued.
        let before = spins
        loop.runOnce(blocking: false)
        #expect(spins > before)
        #expect(!gaveUp)
    }
}
