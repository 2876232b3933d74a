import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// A flush left overdue between two iterations (a slow host, a busy GTK frame: a source signalled
/// more than `maximumFlushDelay` before the next `runOnce`/`dispatch()`) still gives one flush
/// pass per iteration. What a handler signals during that pass belongs to the next iteration,
/// which does not block. (The overdue pass used to run first and request a second pass, which
/// served in the same call what the first had signalled: `updateView()` twice per iteration.)
@Suite(.serialized) struct OverdueFlushTests {
    /// Past a 1 ms `maximumFlushDelay` by far: the deadline timer is due at the next poll.
    private static let overdue: UInt32 = 5_000

    @Test func aSignalDuringAnOverdueFlushIsServedByTheNextRunOnceNotThisOne() throws {
        let loop = try EventLoop(maximumFlushDelay: .milliseconds(1))
        defer { loop.shutdown() }
        var passes: [Int] = []
        var handled = 0
        let source = loop.makeEventSource { source in
            handled += 1
            passes.append(loop.completedFlushCount)
            if handled == 1 { source.signal() }  // as an updateView() that changes a model
        }
        for round in 0..<3 {
            // Ends a blocking call that wrongly waits (a flush left for the next call that did
            // not make it ready), so the test fails instead of hanging.
            let fired = Shared(false)
            let watchdog = loop.watchdog(fired, seconds: 2)
            defer { watchdog.cancel() }
            handled = 0
            passes.removeAll()
            let before = loop.completedFlushCount
            source.signal()
            usleep(Self.overdue)
            loop.runOnce(blocking: false)
            #expect(handled == 1, "round \(round): one flush of the source in one runOnce")
            #expect(loop.completedFlushCount == before + 1, "round \(round)")
            // The signal from the handler: the next call serves it, without blocking first.
            loop.runOnce(blocking: true)
            #expect(handled == 2, "round \(round)")
            #expect(passes == [before, before + 1], "round \(round): one pass per call")
            #expect(!fired.value)
        }
    }

    /// The ready work of the call still runs in it (a main-queue block, `execute` work), and the
    /// one flush pass comes after it, serving the overdue signal and the work's together.
    @Test func anOverdueFlushAndTheReadyWorkGiveOnePassAfterTheWork() throws {
        let loop = try EventLoop(maximumFlushDelay: .milliseconds(1))
        defer { loop.shutdown() }
        var log: [String] = []
        let early = loop.makeEventSource { source in log.append("early \(source.mergedSignalCount)") }
        let late = loop.makeEventSource { _ in log.append("late") }
        for round in 0..<3 {
            early.signal()
            usleep(Self.overdue)
            loop.enqueue {
                log.append("work")
                early.signal()
                late.signal()
            }
            loop.runOnce(blocking: false)
            #expect(log == ["work", "early 2", "late"], "round \(round)")
            log.removeAll()
        }
    }

    /// The same through a host loop's `dispatch()`, which is one `runOnce(blocking: false)`:
    /// one pass per host iteration, and the handler's signal makes the next `prepare()` ready.
    @Test func aHostDispatchWithAnOverdueFlushRunsOnePass() throws {
        let loop = try EventLoop(maximumFlushDelay: .milliseconds(1))
        let driver = try loop.makeHostDriver()
        defer {
            driver.invalidate()
            loop.shutdown()
        }
        var handled = 0
        let source = loop.makeEventSource { source in
            handled += 1
            if handled == 1 { source.signal() }
        }
        source.signal()
        usleep(Self.overdue)
        _ = driver.prepare()
        #expect(driver.hasReadyWork)
        driver.dispatch()
        #expect(handled == 1)
        #expect(driver.prepare() == .zero)  // the next host iteration must not block
        driver.dispatch()
        #expect(handled == 2)
        #expect(driver.prepare() == nil)
    }
}
