import Foundation
import LoopTestSupport
import Testing
import ViewModelKitSchedulers

@testable import LoopScheduler

/// "never" (`.seconds(.infinity)`, `.seconds(Int.max)`) must stay in the future.
/// Time arithmetic saturates at the ends of `Int64` nanoseconds, as Combine's and Dispatch's do.
@Suite(.serialized) struct TimeSaturationTests {
    typealias Instant = MonotonicInstant
    typealias Stride = MonotonicInstant.Stride

    @Test func instantArithmeticSaturatesInsteadOfWrapping() {
        let now = Instant(nanoseconds: 5_000_000_000)
        #expect(now.advanced(by: .seconds(.infinity)) == Instant(nanoseconds: .max))
        #expect(now.advanced(by: .seconds(Int.max)) == Instant(nanoseconds: .max))
        #expect(Instant(nanoseconds: -1).advanced(by: .seconds(-.infinity)) == Instant(nanoseconds: .min))
        #expect(Instant(nanoseconds: .max).advanced(by: .nanoseconds(1)) == Instant(nanoseconds: .max))
        #expect(Instant(nanoseconds: .min).distance(to: Instant(nanoseconds: .max)) == Stride(nanoseconds: .max))
        #expect(Instant(nanoseconds: .max).distance(to: Instant(nanoseconds: .min)) == Stride(nanoseconds: .min))
        #expect(now.distance(to: Instant(nanoseconds: 7_000_000_000)) == .seconds(2))
    }

    @Test func strideArithmeticSaturates() {
        let never = Stride(nanoseconds: .max)
        #expect(never + .seconds(1) == never)
        #expect(Stride(nanoseconds: .min) - .seconds(1) == Stride(nanoseconds: .min))
        #expect(never * Stride(nanoseconds: 2) == never)
        #expect(never * Stride(nanoseconds: -2) == Stride(nanoseconds: .min))
        #expect(Stride.seconds(2) + .milliseconds(500) == Stride(nanoseconds: 2_500_000_000))
        #expect(Stride.seconds(2) - .seconds(3) == .seconds(-1))
        var accumulated = Stride.seconds(Int.max)
        accumulated += .seconds(Int.max)
        #expect(accumulated == never)
    }

    /// A deadline at "never" must not sort first and hold the loop's one libevent timer: a 1 ms
    /// action scheduled after it still runs.
    @Test func neverOnTheLoopDoesNotBlockOtherTimers() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(.infinity))) { log.append("never") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(Int.max))) { log.append("never too") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1))) {
            log.append("1 ms")
            loop.stop()
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired, seconds: 5)
        try loop.run()
        watchdog.cancel()
        #expect(log == ["1 ms"])
        #expect(!watchdogFired.value)
    }

    /// A repeating action with an interval of "never" runs once and does not trap computing its
    /// next tick (nor how late it was).
    @Test func repeatingNeverIntervalOnTheLoopRunsOnceWithoutTrapping() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        var ticks = 0
        let token = scheduler.schedule(
            after: scheduler.now, interval: .seconds(Int.max), tolerance: .zero, options: nil
        ) { ticks += 1 }
        // A past deadline with a huge interval: the lateness computation must not overflow either.
        let past = scheduler.schedule(
            after: Instant(nanoseconds: .min), interval: .seconds(Int.max), tolerance: .zero, options: nil
        ) { ticks += 10 }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(5))) { loop.stop() }
        try loop.run()
        #expect(ticks == 11)
        token.cancel()
        past.cancel()
    }

    @Test func neverOnTheTestSchedulerStaysInTheFuture() {
        let scheduler = TestScheduler(now: Instant(nanoseconds: 1_000))
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(.infinity))) { log.append("never") }
        scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1))) { log.append("1 ms") }
        scheduler.advance(by: .milliseconds(1))
        #expect(log == ["1 ms"])
        #expect(scheduler.pendingActionCount == 1)
    }

    @Test func advancingByNeverMovesTheClockToTheEndOfTime() {
        let scheduler = TestScheduler(now: Instant(nanoseconds: 1_000))
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3))) { log.append("3 s") }
        scheduler.advance(by: .seconds(Int.max))
        #expect(scheduler.now == Instant(nanoseconds: .max))
        #expect(log == ["3 s"])
    }

    /// A repeating action whose next tick saturates at the end of time fires there once; it
    /// cannot fire again (there is no later instant), so `advance` ends.
    @Test func repeatingNeverIntervalOnTheTestSchedulerEnds() {
        let scheduler = TestScheduler(now: Instant(nanoseconds: 1_000))
        var ticks = 0
        let token = scheduler.schedule(
            after: scheduler.now, interval: .seconds(Int.max), tolerance: .zero, options: nil
        ) { ticks += 1 }
        scheduler.advance(by: .milliseconds(1))
        #expect(ticks == 1)
        scheduler.advance(to: Instant(nanoseconds: .max))
        #expect(ticks == 2)
        #expect(scheduler.now == Instant(nanoseconds: .max))
        scheduler.advance(by: .seconds(1))
        #expect(ticks == 2)
        token.cancel()
    }
}
