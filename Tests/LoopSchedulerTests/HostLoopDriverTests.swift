import CLibevent
import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// `HostLoopDriver`: the descriptor, deadline and dispatch a foreign main loop drives us with.
/// Each test plays the host: `prepare()`, `poll(2)` on the descriptor, `dispatch()`.
@Suite struct HostLoopDriverTests {
    /// Whether the driver's descriptor turns readable within `milliseconds` (-1: wait for ever).
    private func readable(_ driver: HostLoopDriver, within milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: driver.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    @Test func anIdleLoopHasNoDeadlineAndAQuietDescriptor() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 50))
        #expect(!driver.hasReadyWork)
    }

    /// A driver outlives its loop's `shutdown()` without touching the freed base: `prepare()`
    /// has no deadline, nothing is ready, `dispatch()` reports the end; a new driver is refused.
    /// (prepare() after shutdown crashed in event_base_foreach_event.)
    @Test func aShutDownLoopIsNotDrivenAnyMore() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        let timer = loop.scheduleTimer(after: .milliseconds(10)) {}
        #expect(driver.prepare() != nil)
        loop.shutdown()
        timer.cancel()
        #expect(driver.prepare() == nil)
        #expect(driver.prepareMilliseconds() == -1)
        #expect(!driver.hasReadyWork)
        #expect(driver.dispatch() == false)
        #expect(throws: HostLoopError.loopShutDown) { try loop.makeHostDriver() }
    }

    /// `shutdown()` from one of the loop's own callbacks, as its doc allows, during a dispatch.
    @Test func aLoopShutDownFromItsOwnCallbackEndsTheDispatch() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        let ran = Shared(0)
        loop.execute {
            ran.mutate { $0 += 1 }
            loop.shutdown()
        }
        _ = driver.prepare()
        #expect(readable(driver, within: 1_000))
        #expect(driver.dispatch() == false)
        #expect(ran.value == 1)
        #expect(driver.prepare() == nil)
        #expect(driver.dispatch() == false)
    }

    @Test func aTimerMakesTheDescriptorReadableAtItsDeadlineWithoutATimeout() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        var fired = 0
        let start = MonotonicInstant.now()
        let timer = loop.scheduleTimer(after: .milliseconds(40)) { fired += 1 }
        let timeout = try #require(driver.prepare())
        // The timeout is what is left of the 40 ms: never more, and never less than what is
        // still left after prepare() returned (no window on how long the machine took).
        let left = MonotonicInstant.now().distance(to: try #require(driver.nextDeadline))
        #expect(timeout <= .milliseconds(40) && timeout >= left)
        #expect(!readable(driver, within: 0))
        // The host waits on the descriptor alone: the timerfd inside it wakes the host.
        #expect(readable(driver, within: 5_000))
        #expect(start.distance(to: .now()) >= .milliseconds(40))
        #expect(driver.dispatch())
        #expect(fired == 1)
        #expect(driver.dispatchCount == 1)
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 20))
        timer.cancel()
    }

    @Test func theMillisecondTimeoutIsRoundedUpAndZeroOnlyWhenReady() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        #expect(driver.prepareMilliseconds() == -1)
        let soon = loop.scheduleTimer(after: .microseconds(300_500)) {}
        let milliseconds = driver.prepareMilliseconds()
        let left = MonotonicInstant.now().distance(to: try #require(driver.nextDeadline))
        #expect(milliseconds >= 1 && milliseconds <= 301)
        #expect(MonotonicInstant.Stride.milliseconds(Int(milliseconds)) >= left)  // never early
        soon.cancel()
        let now = loop.scheduleTimer(after: .zero) {}
        #expect(driver.prepareMilliseconds() == 0)
        driver.dispatch()
        #expect(driver.prepareMilliseconds() == -1)
        now.cancel()
    }

    @Test func aReadyDescriptorRunsItsHandlerInOneDispatch() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        let pipe = TestPipe()
        var reads = 0
        let watch = loop.watch(fd: pipe.readEnd, events: .read) { _ in
            reads += 1
            pipe.readByte()
        }
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 20))
        pipe.writeByte()
        #expect(readable(driver, within: 5_000))
        driver.dispatch()
        #expect(reads == 1)
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 20))
        watch.cancel()
        #expect(driver.prepare() == nil)
        pipe.writeByte()
        #expect(!readable(driver, within: 20))  // no longer watched, no longer mirrored
    }

    @Test func aDescriptorNumberClosedAndReusedIsWatchedAgain() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        var first: TestPipe? = TestPipe()
        let number = first!.readEnd
        let firstWatch = loop.watch(fd: number, events: .read) { _ in }
        _ = driver.prepare()
        firstWatch.cancel()
        first = nil  // closes the descriptor: the kernel drops it from our epoll set
        // The kernel hands out the lowest free number, but a test running in parallel may take it
        // first: open pipes (kept until the end) until one gets the number back.
        var spares: [TestPipe] = []
        var reused: TestPipe?
        while reused == nil, spares.count < 64 {
            let pipe = TestPipe()
            if pipe.readEnd == number { reused = pipe } else { spares.append(pipe) }
        }
        defer { withExtendedLifetime(spares) {} }
        guard let second = reused else { return }  // the number stayed taken: nothing to check
        #expect(second.readEnd == number)
        var reads = 0
        let secondWatch = loop.watch(fd: second.readEnd, events: .read) { _ in
            reads += 1
            second.readByte()
        }
        _ = driver.prepare()
        second.writeByte()
        #expect(readable(driver, within: 5_000))
        driver.dispatch()
        #expect(reads == 1)
        secondWatch.cancel()
    }

    @Test func workFromAnotherThreadWakesTheHost() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        let ran = Shared(0)
        #expect(driver.prepare() == nil)
        let thread = TestThread {
            usleep(20_000)
            loop.execute { ran.mutate { $0 += 1 } }
        }
        #expect(readable(driver, within: 5_000))
        driver.dispatch()
        #expect(ran.value == 1)
        thread.join()
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 20))
    }

    @Test func aScheduledActionFromAnotherThreadWakesTheHostAtItsDeadline() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        let scheduler = LoopScheduler(loop: loop)
        let ran = Shared(0)
        #expect(driver.prepare() == nil)
        let thread = TestThread {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(30))) { ran.mutate { $0 += 1 } }
        }
        thread.join()
        // Woken by the new deadline (HostWake), the host prepares again and sleeps until it.
        #expect(readable(driver, within: 5_000))
        var dispatches = 0
        while ran.value == 0 && dispatches < 10 {
            _ = driver.prepare()
            #expect(readable(driver, within: 5_000))
            driver.dispatch()
            dispatches += 1
        }
        #expect(ran.value == 1)
        #expect(dispatches <= 2)  // the wake-up for the new deadline, then the deadline itself
    }

    @Test func signalsFromAnotherThreadCoalesceIntoOneFlushInOneDispatch() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        var merged: [Int] = []
        let source = loop.makeEventSource { merged.append($0.mergedSignalCount) }
        #expect(driver.prepare() == nil)
        let thread = TestThread {
            for _ in 0..<100 { source.signal() }
        }
        thread.join()
        #expect(readable(driver, within: 5_000))
        driver.dispatch()
        #expect(merged == [100])
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 20))
        source.cancel()
    }

    @Test func aSignalDuringTheFlushIsServedByTheNextHostIterationWithoutBlocking() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        var calls = 0
        var sourceRef: LoopEventSource?
        let source = loop.makeEventSource { _ in
            calls += 1
            if calls == 1 { sourceRef?.signal() }
        }
        sourceRef = source
        source.signal()  // on the loop's thread, between dispatches (a GTK handler, say)
        #expect(driver.prepare() == .zero)  // already active: the host must not block
        driver.dispatch()
        #expect(calls == 1)
        #expect(driver.prepare() == .zero)  // the re-armed flush is due now
        #expect(readable(driver, within: 1_000))
        driver.dispatch()
        #expect(calls == 2)
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 20))
        sourceRef = nil
        source.cancel()
    }

    @Test func aForeignLibeventEventOnTheBaseIsMirrored() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        let pipe = TestPipe()
        let fired = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        fired.pointee = 0
        defer { fired.deallocate() }
        let callback: event_callback_fn = { _, _, arg in
            arg!.assumingMemoryBound(to: Int.self).pointee += 1
        }
        let event = try #require(event_new(loop.base, pipe.readEnd, Int16(EV_READ), callback, fired))
        defer { event_free(event) }
        event_add(event, nil)
        #expect(driver.prepare() == nil)
        pipe.writeByte()
        #expect(readable(driver, within: 5_000))
        driver.dispatch()
        #expect(fired.pointee == 1)
        // Not persistent: libevent removed it, and so did the mirror.
        #expect(driver.prepare() == nil)
        #expect(!readable(driver, within: 20))
    }

    @Test func stopEndsTheDispatchAndIsReportedToTheHost() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        loop.execute { loop.stop() }
        #expect(readable(driver, within: 1_000))
        #expect(driver.dispatch() == false)
        _ = driver.prepare()
        #expect(driver.dispatch() == true)  // a stop ends one dispatch, not the host
    }

    @Test func aLoopHasOneHostAtATime() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        #expect(throws: HostLoopError.alreadyDriven) { try loop.makeHostDriver() }
        driver.invalidate()
        let second = try loop.makeHostDriver()
        #expect(second.prepare() == nil)
    }

    @Test func aTimerOnAnAdoptedBaseWithTheCoarseClockIsNotReportedEarly() throws {
        EventLoop.enableThreadSupport()
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        var fired = 0
        do {
            let loop = try EventLoop(adopting: base)
            let driver = try loop.makeHostDriver()
            let timer = loop.scheduleTimer(after: .milliseconds(15)) { fired += 1 }
            var dispatches = 0
            while fired == 0 && dispatches < 50 {
                _ = driver.prepare()
                #expect(readable(driver, within: 5_000))
                driver.dispatch()
                dispatches += 1
            }
            #expect(fired == 1)
            #expect(dispatches == 1)  // woken once, at a deadline libevent also sees as due
            timer.cancel()
        }
    }
}
