import CGLib
import Dispatch
import Foundation
import LoopTestSupport
import Synchronization
import ViewModelKit
import XCTest

@testable import GLibLoop

// The iteration contract (docs/ARCHITECTURE.md) with GLib as the host: EventLoop.main driven by a
// GLibLoopSource on GLib's default context, one g_main_context_iteration at a time, on the main
// thread (XCTest runs test methods there, as EventLoop.main, DispatchQueue.main and the
// MainActor need).

private final class Counter: ObservableObject, @unchecked Sendable {
    @Published var count = 0
    @Published var label = ""
}

private final class Toggle: ObservableObject, @unchecked Sendable {
    @Published var isOn = false
}

private final class CounterView: ViewModelObserver, @unchecked Sendable {
    @ViewModel var counter: Counter
    @ViewModel var toggle = Toggle()
    let name: String
    let log: Shared<[String]>?
    var updates: [String] = []
    var onUpdate: ((CounterView) -> Void)?

    init(_ counter: Counter, name: String = "", log: Shared<[String]>? = nil) {
        self.counter = counter
        self.name = name
        self.log = log
        bindViewModels()
    }

    func updateView() {
        XCTAssertTrue(Thread.isMainThread)
        if !updates.isEmpty {  // the first one is bindViewModels' own, synchronous
            XCTAssertGreaterThan(g_main_depth(), 0, "updateView ran inside a GLib dispatch")
        }
        updates.append("\(counter.count)\(counter.label)\(toggle.isOn ? "+" : "")")
        log?.mutate { $0.append("\(name):\(counter.count)") }
        onUpdate?(self)
    }
}

final class GLibHostContractTests: XCTestCase {
    private var glibSource: GLibLoopSource!
    private var loop: EventLoop { EventLoop.main }
    private var dispatches: Int { glibSource.driver.dispatchCount }

    override func setUpWithError() throws {
        for _ in 0..<3 { EventLoop.main.runOnce(blocking: false) }  // nothing leaks in
        glibSource = try GLibLoopSource(loop: .main)
        while iterate(nil, blocking: false) {}
    }

    override func tearDown() {
        while iterate(nil, blocking: false) {}
        glibSource.destroy()
        glibSource = nil
    }

    // 1: once per iteration, with the final value.
    func testTenChangesInOneGLibIterationGiveOneUpdate() {
        let view = CounterView(Counter())
        XCTAssertEqual(view.updates, ["0"])
        loop.execute { @Sendable in
            for i in 1...10 { view.counter.count = i }
        }
        XCTAssertTrue(iterate(nil, blocking: true))
        XCTAssertEqual(view.updates, ["0", "10"])
        XCTAssertEqual(dispatches, 1)
        XCTAssertFalse(iterate(nil, blocking: false))
        XCTAssertEqual(view.updates.count, 2)
    }

    // 1 and 2: three kinds of callbacks of one iteration (job, main dispatch queue, timer).
    func testThreeCallbacksOfOneIterationGiveOneUpdateAfterThemAll() {
        let view = CounterView(Counter())
        let fired = Shared(0)
        loop.execute { @Sendable in
            view.counter.count = 1
            fired.mutate { $0 += 1 }
        }
        DispatchQueue.main.async {
            view.counter.label = "x"
            fired.mutate { $0 += 1 }
        }
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            view.toggle.isOn = true
            fired.mutate { $0 += 1 }
        }
        XCTAssertTrue(iterate(nil, blocking: true))
        if fired.value < 3 { XCTAssertTrue(iterate(nil, blocking: true)) }
        XCTAssertEqual(fired.value, 3)
        XCTAssertEqual(view.updates.last, "1x+")
        XCTAssertLessThanOrEqual(view.updates.count - 1, dispatches)
        XCTAssertFalse(iterate(nil, blocking: false))
        timer.cancel()
    }

    // 3: a change during updateView is served by the next GLib iteration, which does not block.
    func testAChangeInsideUpdateViewGivesOneMoreUpdateInTheNextIterationWithoutBlocking() {
        let view = CounterView(Counter())
        view.onUpdate = { v in if v.counter.count == 1 { v.counter.count = 2 } }
        view.counter.count = 1
        XCTAssertTrue(iterate(nil, blocking: false))
        XCTAssertEqual(view.updates, ["0", "1"])
        XCTAssertTrue(iterate(nil, blocking: false), "ready at once: GLib must not sleep first")
        XCTAssertEqual(view.updates, ["0", "1", "2"])
        XCTAssertFalse(iterate(nil, blocking: false))
        XCTAssertEqual(dispatches, 2)
    }

    // 3, overdue: the same when the change was made more than the main loop's 20 ms
    // maximumFlushDelay before the GLib iteration that serves it (a busy GTK frame): the overdue
    // flush and a second pass used to run in that one dispatch, updateView() twice.
    func testAnOverdueFlushStillGivesOneUpdatePerGLibIteration() {
        let view = CounterView(Counter())
        view.onUpdate = { v in if v.counter.count == 1 { v.counter.count = 2 } }
        view.counter.count = 1
        usleep(30_000)  // past the 20 ms bound: the flush is overdue when GLib dispatches us
        XCTAssertTrue(iterate(nil, blocking: false))
        XCTAssertEqual(view.updates, ["0", "1"])
        XCTAssertEqual(dispatches, 1)
        XCTAssertTrue(iterate(nil, blocking: false), "ready at once: GLib must not sleep first")
        XCTAssertEqual(view.updates, ["0", "1", "2"])
        XCTAssertFalse(iterate(nil, blocking: false))
        XCTAssertEqual(dispatches, 2)
    }

    // 4: changes from other threads wake GLib and coalesce.
    func testChangesFromFourThreadsCoalesceIntoOneUpdate() {
        let counter = Counter()
        let view = CounterView(counter)
        let group = DispatchGroup()
        let lock = NSLock()
        for _ in 0..<4 {
            group.enter()
            Thread {
                for _ in 0..<250 {
                    lock.lock()
                    counter.count += 1
                    lock.unlock()
                }
                group.leave()
            }.start()
        }
        group.wait()
        XCTAssertTrue(iterate(nil, blocking: true))
        XCTAssertEqual(view.updates, ["0", "1000"])
        XCTAssertFalse(iterate(nil, blocking: false))
    }

    func testAChangeFromAnotherThreadWakesTheSleepingContext() {
        let counter = Counter()
        let view = CounterView(counter)
        Thread {
            usleep(20_000)
            counter.count = 7
        }.start()
        iterate(nil) { view.updates.last == "7" }
        // One update, or two when the flush ran between @Published's will-change signal and its
        // store (it then drew the old value, and the did-change edge gave one more): DESIGN-NOTES,
        // "Changes from other threads".
        XCTAssertTrue(view.updates == ["0", "7"] || view.updates == ["0", "0", "7"], "\(view.updates)")
        XCTAssertLessThanOrEqual(view.updates.count - 1, dispatches)
    }

    // 6: observers in binding order, once each per iteration.
    func testTwoObserversGetOneUpdateEachPerIterationInBindingOrder() {
        let log = Shared<[String]>([])
        let counter = Counter()
        let first = CounterView(counter, name: "first", log: log)
        let second = CounterView(counter, name: "second", log: log)
        counter.count = 1
        counter.count = 2
        XCTAssertTrue(iterate(nil, blocking: false))
        XCTAssertEqual(log.value, ["first:0", "second:0", "first:2", "second:2"])
        counter.count = 3
        XCTAssertTrue(iterate(nil, blocking: false))
        XCTAssertEqual(Array(log.value.suffix(2)), ["first:3", "second:3"])
        XCTAssertFalse(iterate(nil, blocking: false))
        XCTAssertEqual(log.value.count, 6)
        withExtendedLifetime((first, second)) {}
    }

    // Changes over three iterations: three updates, one per GLib iteration that ran our work.
    func testARepeatingTimerGivesOneUpdatePerGLibIteration() {
        let view = CounterView(Counter())
        let timer = loop.scheduleRepeatingTimer(every: .milliseconds(5)) {
            view.counter.count += 1
            view.counter.count += 1
        }
        for _ in 0..<3 { XCTAssertTrue(iterate(nil, blocking: true)) }
        timer.cancel()
        XCTAssertEqual(view.updates, ["0", "2", "4", "6"])
        XCTAssertEqual(dispatches, 3)
    }

    /// LoopScheduler.main work, MainActor jobs and DispatchQueue.main blocks all run inside
    /// g_main_loop_run, on the main thread, in GLib dispatches.
    func testMainSchedulerMainActorAndMainQueueRunInsideGMainLoopRun() throws {
        glibSource.destroy()  // runInsideGLib attaches its own
        let ran = Shared<[String]>([])
        let inGLib = Shared(true)
        @Sendable func note(_ what: String) {
            if g_main_depth() == 0 || !Thread.isMainThread { inGLib.value = false }
            ran.mutate { $0.append(what) }
            if ran.value.count == 3 { EventLoop.main.stop() }
        }
        LoopScheduler.main.schedule { note("scheduler") }
        Task { @MainActor in note("mainactor") }
        Thread { DispatchQueue.main.async { note("mainqueue") } }.start()
        try EventLoop.main.runInsideGLib()
        XCTAssertEqual(Set(ran.value), ["scheduler", "mainactor", "mainqueue"])
        XCTAssertTrue(inGLib.value)
        glibSource = try GLibLoopSource(loop: .main)
    }

    /// The quiet second on the main loop, libdispatch's main-queue descriptor included.
    func testTheMainLoopLetsGLibSleepThroughAQuietSecond() {
        g_main_context_set_poll_func(nil, countingPoll)
        defer { g_main_context_set_poll_func(nil, nil) }
        let far = loop.scheduleTimer(after: .seconds(30)) {}
        let mainLoop = g_main_loop_new(nil, 0)!
        let quit = g_timeout_source_new(1_000)!
        g_source_set_callback(
            quit,
            { arg in
                g_main_loop_quit(OpaquePointer(arg))
                return 0
            }, UnsafeMutableRawPointer(mainLoop), nil)
        g_source_attach(quit, nil)
        while iterate(nil, blocking: false) {}
        let before = dispatches
        glibPollCount.store(0, ordering: .relaxed)
        g_main_loop_run(mainLoop)
        XCTAssertEqual(glibPollCount.load(ordering: .relaxed), 1)
        XCTAssertEqual(dispatches, before)
        g_source_unref(quit)
        g_main_loop_unref(mainLoop)
        far.cancel()
    }
}
