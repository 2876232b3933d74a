import CGLib
import Foundation
import LoopTestSupport
import Synchronization
import XCTest

@testable import GLibLoop
@testable import LoopScheduler

/// The GSource under `g_main_context_iteration`, on a private context and loop: exact counts of
/// GLib iterations, our dispatches and callbacks.
final class GLibLoopSourceTests: XCTestCase {
    private var context: OpaquePointer!
    private var loop: EventLoop!
    private var glibSource: GLibLoopSource!

    override func setUpWithError() throws {
        context = g_main_context_new()
        loop = try EventLoop()
        glibSource = try GLibLoopSource(loop: loop, context: context)
        // Attaching a descriptor signals GLib's own wake-up (g_source_add_unix_fd): one iteration
        // that dispatches nothing. Let it pass before counting.
        while iterate(context, blocking: false) {}
        XCTAssertEqual(glibSource.driver.dispatchCount, 0)
    }

    override func tearDown() {
        glibSource.destroy()
        glibSource = nil
        loop = nil
        g_main_context_unref(context)
    }

    private var dispatches: Int { glibSource.driver.dispatchCount }

    func testAnIdleSourceIsNotDispatched() {
        XCTAssertFalse(iterate(context, blocking: false))
        XCTAssertFalse(iterate(context, blocking: false))
        XCTAssertEqual(dispatches, 0)
    }

    func testTwoTimersRunInTwoBlockingIterationsAtTheirDeadlines() {
        var fired: [Int] = []
        let start = MonotonicInstant.now()
        let first = loop.scheduleTimer(after: .milliseconds(20)) { fired.append(1) }
        let second = loop.scheduleTimer(after: .milliseconds(40)) { fired.append(2) }
        XCTAssertTrue(iterate(context, blocking: true))
        XCTAssertEqual(fired, [1])
        XCTAssertGreaterThanOrEqual(start.distance(to: .now()), .milliseconds(20))
        XCTAssertEqual(dispatches, 1)
        XCTAssertTrue(iterate(context, blocking: true))
        XCTAssertEqual(fired, [1, 2])
        XCTAssertGreaterThanOrEqual(start.distance(to: .now()), .milliseconds(40))
        XCTAssertEqual(dispatches, 2)
        XCTAssertFalse(iterate(context, blocking: false))
        XCTAssertEqual(dispatches, 2)
        first.cancel()
        second.cancel()
    }

    func testARepeatingTimerRunsOncePerIteration() {
        var ticks = 0
        let timer = loop.scheduleRepeatingTimer(every: .milliseconds(10)) { ticks += 1 }
        for expected in 1...5 {
            XCTAssertTrue(iterate(context, blocking: true))
            XCTAssertEqual(ticks, expected)
        }
        XCTAssertEqual(dispatches, 5)
        timer.cancel()
    }

    func testAReadyDescriptorIsServedInOneIteration() {
        let pipe = TestPipe()
        var reads = 0
        let watch = loop.watch(fd: pipe.readEnd, events: .read) { _ in
            reads += 1
            pipe.readByte()
        }
        XCTAssertFalse(iterate(context, blocking: false))
        pipe.writeByte()
        XCTAssertTrue(iterate(context, blocking: true))
        XCTAssertEqual(reads, 1)
        XCTAssertEqual(dispatches, 1)
        XCTAssertFalse(iterate(context, blocking: false))
        watch.cancel()
    }

    func testWorkFromAnotherThreadWakesTheBlockedContext() {
        let ran = Shared(0)
        let loop = self.loop!
        let thread = Thread {
            usleep(20_000)
            loop.execute { ran.mutate { $0 += 1 } }
        }
        thread.start()
        XCTAssertTrue(iterate(context, blocking: true))
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(dispatches, 1)
        XCTAssertFalse(iterate(context, blocking: false))
    }

    func testAThousandCrossThreadSignalsCoalesceIntoOneHandlerCall() {
        var merged: [Int] = []
        let source = loop.makeEventSource { merged.append($0.mergedSignalCount) }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for _ in 0..<1_000 { source.signal() }
            done.signal()
        }
        thread.start()
        done.wait()
        XCTAssertTrue(iterate(context, blocking: true))
        XCTAssertEqual(merged, [1_000])
        XCTAssertEqual(dispatches, 1)
        XCTAssertFalse(iterate(context, blocking: false))
        source.cancel()
    }

    func testSignalsFromTheLoopThreadBetweenIterationsMakeTheSourceReady() {
        var merged: [Int] = []
        let source = loop.makeEventSource { merged.append($0.mergedSignalCount) }
        source.signal()
        source.signal()
        source.signal()
        XCTAssertTrue(iterate(context, blocking: false))  // no poll wait needed
        XCTAssertEqual(merged, [3])
        XCTAssertFalse(iterate(context, blocking: false))
        source.cancel()
    }

    /// A callback of ours that runs a GLib iteration itself (a modal dialog's loop): the nested
    /// iteration serves GLib's other sources but not us (runOnce is not re-entrant), does not
    /// spin on our still-readable descriptor, and the source works as before afterwards.
    func testAGLibIterationNestedInOurCallbackServesOthersButNotUs() {
        let context = self.context!
        var glibIdleRan = 0
        var nestedResults: [Bool] = []
        var outerRuns = 0
        let idle = g_idle_source_new()!
        let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        counter.pointee = 0
        defer { counter.deallocate() }
        g_source_set_callback(
            idle,
            { arg in
                arg!.assumingMemoryBound(to: Int.self).pointee += 1
                return 0
            }, counter, nil)
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            outerRuns += 1
            g_source_attach(idle, context)
            nestedResults.append(iterate(context, blocking: false))  // the idle source
            nestedResults.append(iterate(context, blocking: false))  // nothing, not us
        }
        XCTAssertTrue(iterate(context, blocking: true))
        glibIdleRan = counter.pointee
        XCTAssertEqual(outerRuns, 1)
        XCTAssertEqual(glibIdleRan, 1)
        XCTAssertEqual(nestedResults, [true, false])
        XCTAssertEqual(dispatches, 1)
        // Afterwards the descriptor is back: work from another thread still wakes the context.
        let ran = Shared(0)
        let loop = self.loop!
        Thread { loop.execute { ran.mutate { $0 += 1 } } }.start()
        iterate(context) { ran.value == 1 }
        XCTAssertEqual(dispatches, 2)
        g_source_unref(idle)
        timer.cancel()
    }

    /// Destroying the source from inside one of the loop's callbacks ends it cleanly: the
    /// iteration finishes, GLib never dispatches it again, and the loop can get a new host.
    func testDestroyingTheSourceFromOurOwnCallbackEndsItCleanly() throws {
        var ran = 0
        let glibSource = self.glibSource!
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            ran += 1
            glibSource.destroy()
        }
        XCTAssertTrue(iterate(context, blocking: true))
        XCTAssertEqual(ran, 1)
        XCTAssertFalse(iterate(context, blocking: false))
        let again = try GLibLoopSource(loop: loop, context: context)
        let ranAgain = Shared(0)
        loop.execute { ranAgain.mutate { $0 += 1 } }
        iterate(context) { ranAgain.value == 1 }
        again.destroy()
        timer.cancel()
    }

    func testStopQuitsTheGMainLoopAfterTheIteration() throws {
        var order: [String] = []
        let source = loop.makeEventSource { _ in order.append("flush") }
        let loop = self.loop!
        glibSource.destroy()  // runInsideGLib attaches its own source
        let kick = loop.scheduleTimer(after: .milliseconds(5)) {
            order.append("timer")
            source.signal()
            loop.stop()
        }
        try loop.runInsideGLib(context: context)
        XCTAssertEqual(order, ["timer", "flush"])
        kick.cancel()
        source.cancel()
    }

    /// The "no polling" promise: a loop with a far timer and a watched but silent descriptor
    /// lets GLib sleep in one poll for a whole quiet second.
    func testAQuietSecondIsOneSleepInTheHostsPoll() {
        g_main_context_set_poll_func(context, countingPoll)
        let pipe = TestPipe()
        let watch = loop.watch(fd: pipe.readEnd, events: .read) { _ in }
        let farTimer = loop.scheduleTimer(after: .seconds(30)) {}
        let scheduler = LoopScheduler(loop: loop)
        let farAction = scheduler.schedule(
            after: scheduler.now.advanced(by: .seconds(30)), interval: .seconds(30)
        ) {}
        let mainLoop = g_main_loop_new(context, 0)!
        let quit = g_timeout_source_new(1_000)!
        g_source_set_callback(
            quit,
            { arg in
                g_main_loop_quit(OpaquePointer(arg))
                return 0
            }, UnsafeMutableRawPointer(mainLoop), nil)
        g_source_attach(quit, context)
        // Settle: the registrations above woke the host (GLib's own wake-up for the new source,
        // ours for the new scheduler deadline); serve that first.
        while iterate(context, blocking: false) {}
        let before = dispatches
        glibPollCount.store(0, ordering: .relaxed)
        let start = MonotonicInstant.now()
        g_main_loop_run(mainLoop)
        let polls = glibPollCount.load(ordering: .relaxed)
        XCTAssertGreaterThanOrEqual(start.distance(to: .now()), .milliseconds(999))
        XCTAssertEqual(polls, 1, "GLib slept in one poll for the quiet second")
        XCTAssertEqual(dispatches, before, "our source was not dispatched while idle")
        g_source_unref(quit)
        g_main_loop_unref(mainLoop)
        g_main_context_set_poll_func(context, nil)
        watch.cancel()
        farTimer.cancel()
        farAction.cancel()
    }
}
