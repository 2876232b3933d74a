import CLibevent
import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

@Suite(.serialized) struct EventLoopTests {
    @Test func oneShotTimerFiresOnceInABlockingIteration() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var fired = 0
        let timer = loop.scheduleTimer(after: .milliseconds(1)) { fired += 1 }
        #expect(loop.runOnce(blocking: true))
        #expect(fired == 1)
        #expect(loop.runOnce(blocking: false))
        #expect(fired == 1)
        timer.cancel()
        #expect(!timer.isActive)
    }

    @Test func repeatingTimerRunsUntilCancelledFromItsHandler() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var count = 0
        var timer: EventRegistration?
        timer = loop.scheduleRepeatingTimer(every: .milliseconds(1)) {
            count += 1
            if count == 3 {
                timer?.cancel()
                loop.stop()
            }
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        #expect(count == 3)
        #expect(timer?.isActive == false)
        #expect(!watchdogFired.value)
        watchdog.cancel()
    }

    @Test func cancelStopsACallbackThatIsAlreadyActiveInThisIteration() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let pipe = TestPipe()
        pipe.writeByte()
        var calls: [String] = []
        var first: EventRegistration?
        var second: EventRegistration?
        first = loop.watch(fd: pipe.readEnd, events: .read) { _ in
            calls.append("first")
            second?.cancel()
        }
        second = loop.watch(fd: pipe.readEnd, events: .read) { _ in
            calls.append("second")
            first?.cancel()
        }
        loop.runOnce(blocking: true)
        // Both were ready in the same poll; whichever ran first cancelled the other.
        #expect(calls.count == 1)
        #expect(first?.isActive == false || second?.isActive == false)
        first?.cancel()
        second?.cancel()
    }

    @Test func droppingARegistrationCancelsIt() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var fired = 0
        do {
            _ = loop.scheduleTimer(after: .nanoseconds(0)) { fired += 1 }
        }
        let watchdogFired = Shared(false)
        let guardTimer = loop.scheduleTimer(after: .milliseconds(5)) { loop.stop() }
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        #expect(fired == 0)
        guardTimer.cancel()
        watchdog.cancel()
    }

    @Test func watchReportsReadabilityAndWritability() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let pipe = TestPipe()
        var seen: [IOEvents] = []
        let reader = loop.watch(fd: pipe.readEnd, events: .read) { events in
            seen.append(events)
            pipe.readByte()
        }
        pipe.writeByte()
        loop.runOnce(blocking: true)
        #expect(seen == [.read])
        reader.cancel()

        var writable: [IOEvents] = []
        let writer = loop.watch(fd: pipe.writeEnd, events: .write) { writable.append($0) }
        loop.runOnce(blocking: true)
        #expect(writable == [.write])
        writer.cancel()
    }

    @Test func watchTimeoutReportsTimeout() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let pipe = TestPipe()
        var seen: [IOEvents] = []
        let reader = loop.watch(fd: pipe.readEnd, events: .read, timeout: .milliseconds(1)) { seen.append($0) }
        loop.runOnce(blocking: true)
        #expect(seen == [.timeout])
        reader.cancel()
    }

    @Test func executeFromAnotherThreadWakesASleepingLoopInFIFOOrder() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let loopThread = pthread_self()
        let asleep = DispatchSemaphore(value: 0)
        let order = Shared<[Int]>([])
        let onLoopThread = Shared(true)
        // Fires inside run(); after it the loop has nothing ready and blocks in epoll.
        let kick = loop.scheduleTimer(after: .nanoseconds(0)) { asleep.signal() }
        let sender = TestThread {
            asleep.wait()
            for i in 0..<100 {
                loop.execute {
                    if pthread_equal(pthread_self(), loopThread) == 0 { onLoopThread.value = false }
                    order.mutate { $0.append(i) }
                    if i == 99 { loop.stop() }
                }
            }
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        sender.join()
        #expect(!watchdogFired.value)
        #expect(order.value == Array(0..<100))
        #expect(onLoopThread.value)
        kick.cancel()
        watchdog.cancel()
    }

    /// `execute` is FIFO across threads: work the loop thread queues (lock-free while no other
    /// thread's work waits) and work another thread queues run in the order they were queued,
    /// when one call happens before the other. Covers both hand-overs: loop thread first, then
    /// another thread, then the loop thread again (which must queue behind the other thread's
    /// work), and work queued by running work.
    @Test func executeIsFIFOAcrossTheLoopThreadAndOtherThreads() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let order = Shared<[String]>([])
        @Sendable func log(_ name: String) { order.mutate { $0.append(name) } }
        loop.execute {
            loop.execute { log("loop 1") }
            let sender = TestThread {
                loop.execute { log("other 1") }
                loop.execute { log("other 2") }
            }
            sender.join()
            loop.execute {
                log("loop 2")
                loop.execute {
                    log("loop 4")
                    loop.stop()
                }
            }
            loop.execute { log("loop 3") }
            log("first job")
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        #expect(!watchdogFired.value)
        #expect(order.value == ["first job", "loop 1", "other 1", "other 2", "loop 2", "loop 3", "loop 4"])
        watchdog.cancel()
    }

    @Test func stopFromAnotherThreadEndsRun() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let asleep = DispatchSemaphore(value: 0)
        let kick = loop.scheduleTimer(after: .nanoseconds(0)) { asleep.signal() }
        let stopper = TestThread {
            asleep.wait()
            loop.stop()
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        stopper.join()
        #expect(!watchdogFired.value)
        kick.cancel()
        watchdog.cancel()
    }

    @Test func stopBeforeRunEndsTheNextRunAfterOneIteration() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var ran = 0
        loop.execute {}
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) { ran += 1 }
        loop.stop()
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        #expect(!watchdogFired.value)
        // A later run is not affected by the consumed stop.
        let again = loop.scheduleTimer(after: .nanoseconds(0)) { loop.stop() }
        try loop.run()
        #expect(!watchdogFired.value)
        timer.cancel()
        again.cancel()
        watchdog.cancel()
    }

    @Test func reentrantRunThrows() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var caught: EventLoopError?
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            do { try loop.run() } catch { caught = error as? EventLoopError }
            loop.stop()
        }
        try loop.run()
        #expect(caught == .reentrantRun)
        timer.cancel()
    }

    @Test func runFromASecondThreadWhileRunningThrows() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let caught = Shared<EventLoopError?>(nil)
        var other: TestThread?
        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            other = TestThread {
                do { try loop.run() } catch { caught.value = error as? EventLoopError }
                loop.stop()
            }
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        try loop.run()
        other?.join()
        #expect(caught.value == .wrongThread)
        #expect(!watchdogFired.value)
        timer.cancel()
        watchdog.cancel()
    }

    @Test func inEventLoopFollowsTheRunningThread() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        #expect(loop.inEventLoop)  // the creating thread until another thread runs it
        let insideOther = Shared<Bool?>(nil)
        let insideHere = Shared<Bool?>(nil)
        let worker = TestThread {
            let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
                insideOther.value = loop.inEventLoop
                loop.stop()
            }
            try? loop.run()
            timer.cancel()
        }
        worker.join()
        insideHere.value = loop.inEventLoop
        #expect(insideOther.value == true)
        #expect(insideHere.value == false)
    }

    @Test func adoptedBaseDrivenByCEventBaseLoop() throws {
        EventLoop.enableThreadSupport()
        let base = try #require(event_base_new())
        defer { event_base_free(base) }
        try {
            let loop = try EventLoop(adopting: base)
            defer { loop.shutdown() }
            #expect(loop.base == base)
            var log: [String] = []
            var inLoop: [Bool] = []
            let source = loop.makeEventSource { source in
                log.append("flush \(source.mergedSignalCount)")
            }
            let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
                log.append("timer")
                inLoop.append(loop.inEventLoop)
                source.signal()
            }
            loop.execute {
                // @Sendable: only touch thread-safe things here.
                source.signal()
            }
            // Foreign C code runs the base; our events are ordinary events inside it.
            #expect(event_base_loop(base, EVLOOP_ONCE) == 0)
            #expect(event_base_loop(base, EVLOOP_NONBLOCK) >= 0)  // 1: nothing left to do
            #expect(log == ["timer", "flush 2"] || log == ["flush 1", "timer", "flush 1"])
            #expect(inLoop == [true])
            timer.cancel()
            source.cancel()
        }()
    }

    @Test func executorPinsAnActorToALoopOnAnotherThread() async throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let started = DispatchSemaphore(value: 0)
        let worker = TestThread {
            let kick = loop.scheduleTimer(after: .nanoseconds(0)) { started.signal() }
            try? loop.run()
            kick.cancel()
        }
        started.wait()
        let actor = LoopBoundCounter(loop: loop)
        let first = await actor.increment()
        let second = await actor.increment()
        #expect(first == LoopBoundCounter.Report(value: 1, onLoop: true))
        #expect(second == LoopBoundCounter.Report(value: 2, onLoop: true))
        loop.stop()
        worker.join()
    }
}

actor LoopBoundCounter {
    struct Report: Equatable {
        var value: Int
        var onLoop: Bool
    }
    let loop: EventLoop
    private var value = 0

    init(loop: EventLoop) { self.loop = loop }

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    func increment() -> Report {
        value += 1
        loop.preconditionIsolated()
        return Report(value: value, onLoop: loop.inEventLoop)
    }
}
