import Dispatch
import Foundation
import LoopTestSupport
import XCTest

@testable import LoopScheduler

/// XCTest runs test methods on the main thread on Linux, which `EventLoop.main` needs.
final class MainLoopTests: XCTestCase {
    func testMainLoopDrainsTheMainDispatchQueueOnTheMainThread() throws {
        let loop = EventLoop.main
        XCTAssertTrue(loop.inEventLoop)
        let log = Shared<[String]>([])
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                log.mutate { $0.append("main queue") }
            }
            EventLoop.main.stop()
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired, seconds: 10)
        try loop.run()
        XCTAssertEqual(log.value, ["main queue"])
        XCTAssertFalse(watchdogFired.value)
        watchdog.cancel()
    }

    func testMainActorTaskRunsOnTheMainLoop() throws {
        let loop = EventLoop.main
        let log = Shared<[String]>([])
        Task { @MainActor in
            log.mutate { $0.append("task on main: \(isOnMainThread())") }
            await Task.yield()
            log.mutate { $0.append("after yield") }
            EventLoop.main.stop()
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired, seconds: 10)
        try loop.run()
        XCTAssertEqual(log.value, ["task on main: true", "after yield"])
        XCTAssertFalse(watchdogFired.value)
        watchdog.cancel()
    }

    func testAssumeIsolatedHoldsInMainLoopCallbacks() throws {
        let loop = EventLoop.main
        var checks = 0
        let source = loop.makeEventSource { _ in
            MainActor.assumeIsolated { checks += 1 }
            EventLoop.main.stop()
        }
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            MainActor.assumeIsolated { checks += 1 }
            source.signal()
        }
        loop.execute {
            MainActor.assumeIsolated {}
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired, seconds: 10)
        try loop.run()
        XCTAssertEqual(checks, 2)
        XCTAssertFalse(watchdogFired.value)
        timer.cancel()
        watchdog.cancel()
    }

    func testMainLoopRefusesToRunOffTheMainThread() throws {
        let loop = EventLoop.main
        let caught = Shared<EventLoopError?>(nil)
        let thread = TestThread {
            do { try loop.run() } catch { caught.value = error as? EventLoopError }
        }
        thread.join()
        XCTAssertEqual(caught.value, .wrongThread)
    }

    func testWorkFromAnotherThreadWakesTheMainLoop() throws {
        let loop = EventLoop.main
        let asleep = DispatchSemaphore(value: 0)
        let kick = loop.scheduleTimer(after: .nanoseconds(0)) { asleep.signal() }
        let ranOnMain = Shared<Bool?>(nil)
        let sender = TestThread {
            asleep.wait()
            DispatchQueue.main.async {
                ranOnMain.value = isOnMainThread()
                EventLoop.main.stop()
            }
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired, seconds: 10)
        try loop.run()
        sender.join()
        XCTAssertEqual(ranOnMain.value, true)
        XCTAssertFalse(watchdogFired.value)
        kick.cancel()
        watchdog.cancel()
    }
}

extension MainLoopTests {
    func testLoopSchedulerMainRunsWorkFromOtherThreadsOnTheMainThreadInOrder() throws {
        let scheduler = LoopScheduler.main
        let log = Shared<[String]>([])
        let sender = TestThread {
            for i in 0..<3 {
                scheduler.schedule { log.mutate { $0.append("now \(i) main=\(isOnMainThread())") } }
            }
            let date = scheduler.now.advanced(by: .milliseconds(1))
            for i in 0..<3 {
                scheduler.schedule(after: date) {
                    MainActor.assumeIsolated {}
                    log.mutate { $0.append("timer \(i)") }
                    if i == 2 { EventLoop.main.stop() }
                }
            }
        }
        let watchdogFired = Shared(false)
        let watchdog = EventLoop.main.watchdog(watchdogFired, seconds: 10)
        try EventLoop.main.run()
        sender.join()
        XCTAssertEqual(
            log.value,
            [
                "now 0 main=true", "now 1 main=true", "now 2 main=true", "timer 0", "timer 1", "timer 2",
            ])
        XCTAssertFalse(watchdogFired.value)
        watchdog.cancel()
    }
}

func isOnMainThread() -> Bool {
    Thread.isMainThread
}
