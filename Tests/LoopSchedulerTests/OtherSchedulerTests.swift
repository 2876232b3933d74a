import Dispatch
import Foundation
import LoopTestSupport
import Testing
import ViewModelKitSchedulers

@testable import LoopScheduler

@Suite struct ImmediateAndAnySchedulerTests {
    @Test func immediateRunsEverythingAtOnce() {
        let scheduler = ImmediateScheduler.shared
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: 100)) { log.append("after") }
        let token = scheduler.schedule(after: scheduler.now, interval: 1) { log.append("repeat") }
        token.cancel()
        #expect(log == ["now", "after", "repeat"])
    }

    @Test func immediateEventSourceDeliversSynchronouslyWithoutRecursion() {
        var log: [Int] = []
        var depth = 0
        let source = ImmediateScheduler.shared.scheduleEventSource { source in
            depth += 1
            defer { depth -= 1 }
            log.append(depth)
            if log.count == 1 {
                source.signal()
                source.signal()
            }
        }
        source.signal()
        // One delivery, then one more merging both re-signals, after the first returned.
        #expect(log.count == 2)
        #expect(log[0] == 1)
        source.cancel()
        source.signal()
        #expect(log.count == 2)
    }

    @Test func anySchedulerImmediateHasLoopSchedulerTypes() {
        let scheduler: AnySchedulerOf<LoopScheduler> = .immediate
        var log: [String] = []
        scheduler.schedule(options: .init(flushOrder: 3)) { log.append("a") }
        scheduler.schedule(after: scheduler.now.advanced(by: 5)) { log.append("b") }
        let source = scheduler.scheduleEventSource { log.append("flush \($0.mergedSignalCount)") }
        source.signal()
        #expect(log == ["a", "b", "flush 1"])
    }

    @Test func anySchedulerFromClosuresForwards() {
        var scheduled = 0
        let scheduler = AnyScheduler<MonotonicInstant, Never>(
            minimumTolerance: { .nanoseconds(7) },
            now: { MonotonicInstant(nanoseconds: 99) },
            scheduleImmediately: { _, action in
                scheduled += 1
                action()
            },
            delayed: { _, _, _, action in
                scheduled += 10
                action()
            },
            interval: { _, _, _, _, _ in
                scheduled += 100
                return AnyCancellable {}
            })
        #expect(scheduler.now == MonotonicInstant(nanoseconds: 99))
        #expect(scheduler.minimumTolerance == .nanoseconds(7))
        scheduler.schedule {}
        scheduler.schedule(after: scheduler.now) {}
        _ = scheduler.schedule(after: scheduler.now, interval: 1) {}
        #expect(scheduled == 111)
    }
}

@Suite struct DispatchQueueSchedulerTests {
    @Test func strideLiteralsMeanSecondsAsInCombine() {
        let one: DispatchQueue.SchedulerTimeType.Stride = 1
        let quarter: DispatchQueue.SchedulerTimeType.Stride = 0.25
        #expect(one.magnitude == 1_000_000_000)
        #expect(quarter.magnitude == 250_000_000)
        #expect(DispatchQueue.SchedulerTimeType.Stride(.milliseconds(2)).magnitude == 2_000_000)
        let t = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1_000))
        #expect(t.advanced(by: .nanoseconds(500)).dispatchTime.uptimeNanoseconds == 1_500)
        #expect(t.distance(to: t.advanced(by: 2)).magnitude == 2_000_000_000)
    }

    @Test func scheduleRunsInOrderOnTheQueue() {
        let queue = DispatchQueue(label: "test.serial")
        let done = DispatchSemaphore(value: 0)
        let log = Shared<[Int]>([])
        for i in 0..<20 {
            queue.schedule(options: .init(qos: .utility)) { log.mutate { $0.append(i) } }
        }
        queue.schedule(after: queue.now) { done.signal() }
        done.wait()
        #expect(log.value == Array(0..<20))
    }

    @Test func eventSourceCoalescesSignalsIntoOneQueuedBlock() {
        let queue = DispatchQueue(label: "test.source")
        let done = DispatchSemaphore(value: 0)
        let counts = Shared<[Int]>([])
        let source = queue.scheduleEventSource { source in
            counts.mutate { $0.append(source.mergedSignalCount) }
            done.signal()
        }
        // Signalled from a block on the same serial queue: the delivery block runs after it.
        queue.async {
            for _ in 0..<5 { source.signal() }
        }
        done.wait()
        #expect(counts.value == [5])
        source.cancel()
    }

    @Test func repeatingTimerStopsWhenCancelled() {
        let queue = DispatchQueue(label: "test.timer")
        let done = DispatchSemaphore(value: 0)
        let count = Shared(0)
        let token = Shared<Cancellable?>(nil)
        queue.sync {
            token.value = queue.schedule(after: queue.now, interval: .milliseconds(1)) {
                let n = count.mutate { value -> Int in
                    value += 1
                    return value
                }
                if n == 3 {
                    token.value?.cancel()
                    done.signal()
                }
            }
        }
        done.wait()
        // A block queued after the cancel still sees 3.
        queue.sync {}
        #expect(count.value == 3)
    }
}
