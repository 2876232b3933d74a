import Dispatch
import Foundation
import LoopSchedulerFoundation
import Testing
import ViewModelKit
import ViewModelKitFoundation
import XCTest

/// `.seconds(.nan)` and `.seconds(±.infinity)` through generic code, on every scheduler we ship:
/// no trap. NaN and +infinity mean "never" (Dispatch clamps a NaN interval to its largest time),
/// -infinity means "now".
@Suite struct NonFiniteStrideTests {
    final class Fired: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func add(_ name: String) { lock.withLock { names.append(name) } }
        var all: [String] { lock.withLock { names } }
    }

    /// Schedules one-shot and repeating actions at NaN, +inf and -inf strides; returns the tokens.
    static func scheduleNonFinite<S: Scheduler>(on scheduler: S, into fired: Fired, then done: @escaping () -> Void)
        -> [Cancellable]
    {
        var tokens: [Cancellable] = []
        for (name, seconds) in [("nan", Double.nan), ("inf", .infinity)] {
            let later = scheduler.now.advanced(by: .seconds(seconds))
            scheduler.schedule(after: later) { fired.add(name) }
            tokens.append(
                scheduler.schedule(after: later, interval: .seconds(seconds), tolerance: .seconds(seconds)) {
                    fired.add(name + " repeating")
                })
            // A finite start with a non-finite interval fires once, then never again.
            tokens.append(
                scheduler.schedule(after: scheduler.now, interval: .seconds(seconds)) {
                    fired.add("now, every " + name)
                })
        }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(-Double.infinity))) {
            fired.add("-inf")
            done()
        }
        return tokens
    }

    @Test func strideValuesClampLikeDispatch() {
        #expect(LoopScheduler.SchedulerTimeType.Stride.seconds(.nan).nanoseconds == .max)
        #expect(LoopScheduler.SchedulerTimeType.Stride.seconds(.infinity).nanoseconds == .max)
        #expect(LoopScheduler.SchedulerTimeType.Stride.seconds(-.infinity).nanoseconds == .min)
        #expect(DispatchQueue.SchedulerTimeType.Stride.seconds(.nan) == .seconds(.infinity))
        #expect(DispatchQueue.SchedulerTimeType.Stride.seconds(.nan).magnitude == Int(Int64.max))
    }

    @Test func loopSchedulerNeverFiresNaNOrInfinity() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let fired = Fired()
        let tokens = Self.scheduleNonFinite(on: LoopScheduler(loop: loop), into: fired) {}
        for _ in 0..<3 { loop.runOnce(blocking: false) }
        #expect(fired.all.sorted() == ["-inf", "now, every inf", "now, every nan"])
        withExtendedLifetime(tokens) {}
    }

    @Test func dispatchRunLoopAndOperationQueueDoNotTrap() {
        for (name, run) in [
            (
                "DispatchQueue",
                { (fired: Fired, done: @escaping () -> Void) in
                    Self.scheduleNonFinite(on: DispatchQueue(label: "non-finite"), into: fired, then: done)
                }
            ),
            (
                "OperationQueue",
                { (fired: Fired, done: @escaping () -> Void) in
                    Self.scheduleNonFinite(on: OperationQueue(), into: fired, then: done)
                }
            ),
        ] as [(String, (Fired, @escaping () -> Void) -> [Cancellable])] {
            let fired = Fired()
            let semaphore = DispatchSemaphore(value: 0)
            let tokens = run(fired) { semaphore.signal() }
            #expect(semaphore.wait(timeout: .now() + 10) == .success, "\(name): the -inf action ran")
            #expect(!fired.all.contains("nan"), "\(name)")
            #expect(!fired.all.contains("inf"), "\(name)")
            #expect(!fired.all.contains("nan repeating"), "\(name)")
            #expect(!fired.all.contains("inf repeating"), "\(name)")
            for token in tokens { token.cancel() }
        }
    }
}

/// RunLoop.main drains on EventLoop.main, which XCTest runs on the main thread.
final class NonFiniteStrideMainTests: XCTestCase {
    func testRunLoopMainDoesNotTrap() {
        let fired = NonFiniteStrideTests.Fired()
        var done = false
        let tokens = NonFiniteStrideTests.scheduleNonFinite(on: RunLoop.main, into: fired) { done = true }
        let deadline = Date().addingTimeInterval(10)
        while !done && Date() < deadline { EventLoop.main.runOnce(blocking: false) }
        XCTAssertTrue(done)
        XCTAssertFalse(fired.all.contains("nan"))
        XCTAssertFalse(fired.all.contains("inf"))
        for token in tokens { token.cancel() }
        // A cancelled main-queue timer source finishes cancelling on the main queue: let it, so
        // the main loop is quiet for the tests after this one.
        for _ in 0..<3 { EventLoop.main.runOnce(blocking: false) }
    }
}
