import Foundation
import LoopTestSupport
import Synchronization
import Testing

@testable import LoopScheduler

/// Cancelling from other threads while the loop runs: `cancel()` never waits for a running
/// callback, so no callback can deadlock with it (libevent's blocking `event_del` did: the
/// canceller held a lock the callback wanted, or the callback waited for the canceller).
///
/// Each test races plain threads and joins them with a bound: a deadlock fails the test (and
/// leaves the hung threads and their loop behind) instead of hanging the run.
@Suite struct CrossThreadCancelTests {
    /// How long a racing thread may take before the test calls it a deadlock (the races below
    /// finish in well under a second).
    static let deadlockBound = 20.0

    /// A repeating `LoopScheduler` action cancelled from a worker thread while the loop fires
    /// it: the timer queue deleted its libevent timer under its lock (when the cancel left the
    /// queue empty), and `event_del` from another thread waits for the running callback, which
    /// was waiting for that lock. Each round makes that exact interleaving: the worker cancels
    /// while an action holds the timer's callback, which then needs the queue's lock.
    @Test func cancellingRepeatingActionsFromAWorkerWhileTheyFireNeverDeadlocks() throws {
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        let runner = TestThread { try? loop.run() }
        let worker = TestThread {
            for _ in 0..<20 {
                let entered = DispatchSemaphore(value: 0)
                let release = Atomic<Bool>(false)
                let first = Atomic<Bool>(true)
                // Due at once, every microsecond; its first call holds the timer's callback until
                // the worker is about to cancel, then a little longer.
                let token = scheduler.schedule(after: scheduler.now, interval: .microseconds(1)) {
                    guard first.exchange(false, ordering: .relaxed) else { return }
                    entered.signal()
                    for _ in 0..<2_000 where !release.load(ordering: .acquiring) { usleep(500) }
                    usleep(2_000)  // the worker is inside its last cancel by now
                }
                entered.wait()
                // Arms the queue's timer again while its callback runs (`fire` disarmed it).
                let later = scheduler.schedule(
                    after: scheduler.now.advanced(by: .seconds(3_600)), interval: .seconds(1)
                ) {}
                token.cancel()
                release.store(true, ordering: .releasing)
                later.cancel()  // leaves the queue empty: the timer is deleted
            }
        }
        let finished = worker.join(within: Self.deadlockBound)
        #expect(finished, "the worker's cancel() never returned: the loop deadlocked")
        guard finished else {
            AbandonedAfterDeadlock.keep(loop)
            return
        }
        loop.stop()
        #expect(runner.join(within: Self.deadlockBound), "the loop never returned from run()")
        #expect(loop.timers.heapCounts == (live: 0, cancelled: 0))
        #expect(!loop.timers.isArmed)
        loop.shutdown()
    }

    /// The same race at random: several workers scheduling and cancelling repeating actions
    /// that fire all the time (fixed seeds, bounded rounds).
    @Test func workersCancellingRepeatingActionsAtRandomNeverDeadlock() throws {
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        let ticks = Atomic<Int>(0)
        let runner = TestThread { try? loop.run() }
        let workers = (0..<3).map { index in
            TestThread {
                var random = SeededGenerator(seed: 0x5EED_0001 &+ UInt64(index))
                for _ in 0..<1_000 {
                    let token = scheduler.schedule(after: scheduler.now, interval: .microseconds(1)) {
                        ticks.add(1, ordering: .relaxed)
                    }
                    usleep(UInt32.random(in: 0..<40, using: &random))
                    token.cancel()
                }
            }
        }
        let finished = workers.map { $0.join(within: Self.deadlockBound) }
        #expect(finished.allSatisfy { $0 }, "a worker's cancel() never returned: the loop deadlocked")
        guard finished.allSatisfy({ $0 }) else {
            AbandonedAfterDeadlock.keep(loop)
            return
        }
        loop.stop()
        #expect(runner.join(within: Self.deadlockBound), "the loop never returned from run()")
        #expect(ticks.load(ordering: .relaxed) > 0)
        #expect(loop.timers.heapCounts == (live: 0, cancelled: 0))
        loop.shutdown()
    }

    /// The "timeout against completion" shape: a registration's callback shuts the loop down
    /// while another thread cancels (or drops) that registration. The other thread's
    /// `event_free` waited for the callback, and `shutdown()` in the callback waited for that
    /// `event_free` to finish.
    @Test func shutdownFromACallbackWhileAnotherThreadCancelsItsRegistrationNeverDeadlocks() throws {
        for round in 0..<12 {
            let loop = try EventLoop()
            let entered = DispatchSemaphore(value: 0)
            let released = Shared(false)
            final class Capture: @unchecked Sendable {
                let released: Shared<Bool>
                init(_ released: Shared<Bool>) { self.released = released }
                deinit { released.value = true }
            }
            let holder = Shared<EventRegistration?>(nil)
            do {
                let capture = Capture(released)
                holder.value = loop.scheduleTimer(after: .zero) { [capture] in
                    _ = capture
                    entered.signal()
                    usleep(10_000)  // the other thread is inside cancel() by now
                    loop.shutdown()
                }
            }
            let runner = TestThread { try? loop.run() }
            let canceller = TestThread {
                entered.wait()
                if round % 2 == 0 {
                    holder.value?.cancel()
                } else {
                    holder.value = nil  // dropping the last reference cancels too
                }
            }
            let cancelled = canceller.join(within: Self.deadlockBound)
            let ran = runner.join(within: Self.deadlockBound)
            #expect(cancelled && ran, "round \(round): the callback and the cancel waited for each other")
            guard cancelled && ran else {
                AbandonedAfterDeadlock.keep(loop)
                return
            }
            #expect(loop.isShutDown)
            #expect(holder.value?.isActive != true)
            holder.value = nil
            #expect(released.value, "round \(round): the handler was not released")
        }
    }

    /// A registration's handler, cancelled from another thread while it runs, finishes its call;
    /// no call starts after `cancel()` returns, and the handler is released on the loop's thread
    /// once the call has returned.
    @Test func aCrossThreadCancelLetsTheRunningCallFinishAndStartsNoOther() throws {
        let loop = try EventLoop()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let calls = Shared(0)
        let releasedOn = Shared<UInt?>(nil)
        final class Capture: @unchecked Sendable {
            let releasedOn: Shared<UInt?>
            init(_ releasedOn: Shared<UInt?>) { self.releasedOn = releasedOn }
            deinit { releasedOn.value = UInt(pthread_self()) }
        }
        let loopThread = Shared<UInt>(0)
        let registration = Shared<EventRegistration?>(nil)
        do {
            let capture = Capture(releasedOn)
            registration.value = loop.scheduleRepeatingTimer(every: .microseconds(100)) { [capture] in
                _ = capture
                let first = calls.mutate { count -> Bool in
                    count += 1
                    return count == 1
                }
                if first {
                    loopThread.value = UInt(pthread_self())
                    entered.signal()
                    proceed.wait()
                }
            }
        }
        let runner = TestThread { try? loop.run() }
        entered.wait()
        let token = try #require(registration.value)
        let canceller = TestThread { token.cancel() }
        let returned = canceller.join(within: Self.deadlockBound)
        #expect(returned, "cancel() from another thread waited for the running callback")
        #expect(!token.isActive)
        #expect(releasedOn.value == nil)  // the running call still holds its handler
        proceed.signal()
        if !returned {
            AbandonedAfterDeadlock.keep(loop)
            return
        }
        // The handler goes on the loop's thread once the call returned; then stop the loop.
        loop.execute { loop.stop() }
        #expect(runner.join(within: Self.deadlockBound))
        #expect(calls.value == 1)
        #expect(releasedOn.value == loopThread.value)
        loop.shutdown()
    }
}
