import CLibevent
import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// `EventLoop.shutdown()`: its lifecycle, and a dropped loop with pending
/// work (which leaked its `event_base` and descriptors).
@Suite(.serialized) struct ShutdownTests {
    /// Open descriptors of this process.
    static func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }
    /// Bug 7: pending work holds the loop (a job capturing a source, a timed action capturing the
    /// scheduler, a repeating timer's token), so dropping it freed nothing: 300 loops left 1,505
    /// descriptors open. Shut down and dropped, every loop is freed with its descriptors.
    @Test func shutDownLoopsWithPendingWorkAreFreedWithTheirDescriptors() throws {
        let before = Self.openDescriptorCount()
        var freed = 0
        final class Witness {
            weak var loop: EventLoop?
        }
        for _ in 0..<300 {
            let witness = Witness()
            try {
                let loop = try EventLoop()
                witness.loop = loop
                let scheduler = LoopScheduler(loop: loop)
                let source = loop.makeEventSource { _ in }
                loop.execute { source.signal() }  // a pending job holding a source
                scheduler.schedule(after: scheduler.now.advanced(by: .seconds(60))) { _ = scheduler }
                let repeating = scheduler.schedule(after: scheduler.now, interval: 1) { _ = scheduler }
                loop.enqueue { repeating.cancel() }
                source.signal()
                loop.shutdown()
            }()
            if witness.loop == nil { freed += 1 }
        }
        #expect(freed == 300)
        // Suites run in parallel and open descriptors of their own, so the count is compared
        // with slack: the leak left 5 per loop, 1,500 here.
        #expect(Self.openDescriptorCount() - before < 100)
    }

    @Test func shutdownReleasesPendingWorkUnrunAndIsIdempotent() throws {
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        final class Token {}
        weak var jobCapture: Token?
        weak var timerCapture: Token?
        var ran: [String] = []
        do {
            let a = Token()
            let b = Token()
            jobCapture = a
            timerCapture = b
            scheduler.schedule {
                _ = a
                ran.append("job")
            }
            scheduler.schedule(after: scheduler.now) {
                _ = b
                ran.append("timer")
            }
        }
        var handled = 0
        let source = loop.makeEventSource { _ in handled += 1 }
        source.signal()
        let pipe = TestPipe()
        pipe.writeByte()
        var watched = 0
        let watch = loop.watch(fd: pipe.readEnd, events: .read) { _ in watched += 1 }
        #expect(watch.isActive)
        loop.shutdown()
        #expect(loop.isShutDown)
        #expect(jobCapture == nil)
        #expect(timerCapture == nil)
        #expect(!watch.isActive)
        watch.cancel()  // a no-op now
        source.signal()  // ignored
        loop.stop()  // ignored
        loop.shutdown()  // idempotent
        #expect(ran == [])
        #expect(handled == 0)
        #expect(watched == 0)
        #expect(throws: EventLoopError.shutDown) { try loop.run() }
    }

    /// From a callback inside `run()`: the rest of the iteration is skipped, `run()` returns, and
    /// the base is freed then.
    @Test func shutdownFromACallbackEndsRun() throws {
        let loop = try EventLoop()
        var log: [String] = []
        let source = loop.makeEventSource { _ in log.append("flush") }
        loop.enqueue {
            log.append("first")
            source.signal()
            loop.shutdown()
        }
        loop.enqueue { log.append("second") }
        try loop.run()
        #expect(log == ["first"])
        #expect(loop.isShutDown)
    }

    /// From a flush handler inside `runOnce`: the call returns `false`, the later handlers of the
    /// pass are not called.
    @Test func shutdownFromAFlushHandlerEndsRunOnce() throws {
        let loop = try EventLoop()
        var log: [String] = []
        let first = loop.makeEventSource { _ in
            log.append("first")
            loop.shutdown()
        }
        let second = loop.makeEventSource { _ in log.append("second") }
        first.signal()
        second.signal()
        #expect(!loop.runOnce(blocking: true))
        #expect(log == ["first"])
    }

    /// An adopted base is not freed: our events leave it and its owner keeps running it.
    @Test func shutdownOfAnAdoptedLoopLeavesTheBaseToItsOwner() throws {
        EventLoop.enableThreadSupport()
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        let loop = try EventLoop(adopting: base)
        var fired = 0
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) { fired += 1 }
        loop.execute {}
        loop.shutdown()
        #expect(!timer.isActive)
        // No event of ours is left: the base is empty.
        #expect(event_base_loop(base, EVLOOP_NONBLOCK) == 1)
        #expect(fired == 0)
    }
}
