import Foundation
import LoopTestSupport
import Synchronization
import Testing
import ViewModelKitSchedulers

@testable import ViewModelKit

/// `Publishers.Timer` on a `LoopScheduler`, stopped from another thread while the loop delivers
/// a tick: the connection's cancel deleted the loop's timer under the timer queue's lock, which
/// the tick's callback needed next, and the loop hung. A deadlock fails the test (the worker is
/// joined with a bound) instead of hanging the run.
@Suite struct LoopTimerCancelTests {
    @Test func aTimerConnectionCancelledFromAWorkerDuringATickNeverDeadlocks() throws {
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        let ticks = Atomic<Int>(0)
        let runner = TestThread { try? loop.run() }
        let worker = TestThread {
            for _ in 0..<10 {
                let entered = DispatchSemaphore(value: 0)
                let release = Atomic<Bool>(false)
                let first = Atomic<Bool>(true)
                let timer = Publishers.Timer(every: .microseconds(1), scheduler: scheduler)
                let subscription = timer.sink { _ in
                    ticks.add(1, ordering: .relaxed)
                    guard first.exchange(false, ordering: .relaxed) else { return }
                    entered.signal()
                    for _ in 0..<2_000 where !release.load(ordering: .acquiring) { usleep(500) }
                    usleep(2_000)  // the worker is inside its last cancel by now
                }
                let connection = timer.connect()
                entered.wait()
                // A second timer arms the loop's timer again while the tick's callback runs.
                let slow = Publishers.Timer(every: .seconds(3_600), scheduler: scheduler).connect()
                connection.cancel()
                release.store(true, ordering: .releasing)
                slow.cancel()  // nothing left to fire: the loop's timer is deleted
                subscription.cancel()
            }
        }
        let finished = worker.join(within: 20)
        #expect(finished, "cancelling the timer's connection never returned: the loop deadlocked")
        guard finished else {
            AbandonedAfterDeadlock.keep(loop)
            return
        }
        loop.stop()
        #expect(runner.join(within: 20))
        #expect(ticks.load(ordering: .relaxed) >= 10)
        loop.shutdown()
    }
}

@Suite struct TimerPublisherTests {
    @Test func ticksEveryIntervalWithTheSchedulersTime() {
        let scheduler = TestScheduler()
        let recorder = Recorder<MonotonicInstant, Never>()
        let timer = Publishers.Timer(every: .nanoseconds(10), scheduler: scheduler).autoconnect()
        timer.subscribe(recorder)
        scheduler.advance(by: .nanoseconds(35))
        #expect(recorder.values.map(\.nanoseconds) == [10, 20, 30])
        recorder.cancel()
        scheduler.advance(by: .nanoseconds(35))
        #expect(recorder.values.map(\.nanoseconds) == [10, 20, 30])
    }

    @Test func connectableTimerStartsAtConnectAndStopsAtCancel() {
        let scheduler = TestScheduler()
        let recorder = Recorder<MonotonicInstant, Never>()
        let timer = Publishers.Timer(every: .nanoseconds(10), scheduler: scheduler)
        timer.subscribe(recorder)
        scheduler.advance(by: .nanoseconds(25))
        #expect(recorder.values.isEmpty)
        let connection = timer.connect()
        scheduler.advance(by: .nanoseconds(25))
        connection.cancel()
        scheduler.advance(by: .nanoseconds(25))
        #expect(recorder.values.map(\.nanoseconds) == [35, 45])
        #expect(recorder.events.count == 3)  // subscription + 2 values, never a completion
        recorder.detachIfRunning()
    }

    @Test func subscribersWithoutDemandMissTicks() {
        let scheduler = TestScheduler()
        let recorder = Recorder<MonotonicInstant, Never>(initialDemand: .max(2))
        let timer = Publishers.Timer(every: .nanoseconds(10), scheduler: scheduler).autoconnect()
        timer.subscribe(recorder)
        scheduler.advance(by: .nanoseconds(30))
        recorder.request(.max(1))
        scheduler.advance(by: .nanoseconds(10))
        #expect(recorder.values.map(\.nanoseconds) == [10, 20, 40])
        recorder.detachIfRunning()
    }
}
