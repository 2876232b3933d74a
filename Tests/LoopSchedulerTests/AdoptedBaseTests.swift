import CLibevent
import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// The documented guarantees for a foreign base with a single priority, driven by C's
/// `event_base_loop`.
@Suite(.serialized) struct AdoptedBaseTests {
    @Test func singlePriorityBaseFlushesAfterTheAlreadyActiveCallbacksAndDefersInFlushSignals() throws {
        EventLoop.enableThreadSupport()
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        #expect(event_base_get_npriorities(base) == 1)
        try {
            let loop = try EventLoop(adopting: base)
            defer { loop.shutdown() }
            let pipe = TestPipe()
            pipe.writeByte()
            var log: [String] = []
            var calls = 0
            let source = loop.makeEventSource { source in
                calls += 1
                log.append("flush \(source.mergedSignalCount)")
                if calls == 1 { source.signal() }
            }
            let reader = loop.watch(fd: pipe.readEnd, events: .read) { _ in
                pipe.readByte()
                log.append("io")
                source.signal()
            }
            let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
                log.append("timer")
                source.signal()
            }
            // One C-driven iteration: both callbacks were active before the first signal, so the
            // flush comes after both and merges both signals (guarantees 1 and 2).
            #expect(event_base_loop(base, EVLOOP_ONCE) == 0)
            #expect(log.count == 3)
            #expect(Set(log.prefix(2)) == ["io", "timer"])
            #expect(log.last == "flush 2")
            // The signal raised inside the flush waits for the next iteration (guarantee 3), which
            // does not block: a nonblocking pass serves it.
            #expect(event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK) == 0)
            #expect(log.last == "flush 1")
            #expect(calls == 2)
            reader.cancel()
            timer.cancel()
        }()
    }

    @Test func adoptedBaseIsNotFreedAndCanBeAdoptedAgain() throws {
        EventLoop.enableThreadSupport()
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        for round in 0..<2 {
            let loop = try EventLoop(adopting: base)
            defer { loop.shutdown() }
            var fired = 0
            let timer = loop.scheduleTimer(after: .nanoseconds(0)) { fired += 1 }
            #expect(event_base_loop(base, EVLOOP_ONCE) == 0, "round \(round)")
            #expect(fired == 1)
            timer.cancel()
        }
    }

    @Test func handlerDroppingItsOwnRegistrationIsSafe() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var fired = 0
        var timer: EventRegistration? = nil
        timer = loop.scheduleRepeatingTimer(every: .microseconds(1)) {
            fired += 1
            timer = nil  // frees the running event from inside its own callback
        }
        loop.runOnce(blocking: true)
        let guardTimer = loop.scheduleTimer(after: .milliseconds(2)) {}
        loop.runOnce(blocking: true)
        #expect(fired == 1)
        #expect(timer == nil)
        guardTimer.cancel()
    }
}

extension AdoptedBaseTests {
    /// The adopting docs' teardown order (drop the loop and its sources, then
    /// free the base) done from one of the loop's own flush handlers while C code runs
    /// `event_base_loop`. The flush's after-pass hook reached the loop through `unowned` and the
    /// process aborted; now the loop is gone when the handler returns and the C loop carries on.
    @Test func adoptedLoopTornDownFromItsOwnFlushHandler() throws {
        EventLoop.enableThreadSupport()
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        final class Holder {
            var loop: EventLoop?
            var source: LoopEventSource?
            weak var weakLoop: EventLoop?
        }
        let holder = Holder()
        var handled = 0
        try {
            let loop = try EventLoop(adopting: base)
            holder.loop = loop
            holder.weakLoop = loop
            holder.source = loop.makeEventSource { _ in
                handled += 1
                holder.source = nil
                holder.loop = nil
            }
            holder.source?.signal()
        }()
        #expect(event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK) == 0)
        #expect(handled == 1)
        #expect(holder.weakLoop == nil)
        // The base is still usable by its owner.
        #expect(event_base_loop(base, EVLOOP_NONBLOCK) == 1)
    }
}
