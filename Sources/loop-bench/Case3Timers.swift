import CLibeventBaseline
import LoopScheduler

/// Case 3: one-shot timers spread over 100 ms, all fired. Figure: CPU time of the loop thread per
/// timer (scheduling and firing; sleeping between deadlines costs nothing), against raw libevent
/// timers on a base with the same precise-timer flag.
enum Timers {
    static func run(_ settings: RunSettings) -> [Row] {
        let count = settings.size(100_000, quick: 5_000)
        let spreadMicroseconds = settings.size(100_000, quick: 10_000)
        let (ours, raw) = measurePair(
            runs: settings.runs, { loopScheduler(count, spreadMicroseconds) }, { rawTimers(count, spreadMicroseconds) })
        let native = measure(runs: settings.runs) { eventLoopTimers(count, spreadMicroseconds) }
        return [
            Row(
                name: "3 LoopScheduler timers", unit: "cpu ns/timer", better: .lower, value: ours,
                baselineName: "raw C libevent timers", baseline: raw,
                note: "\(count) schedule(after:) over \(spreadMicroseconds / 1000) ms, main-thread CPU time per timer"),
            Row(
                name: "3b EventLoop.scheduleTimer", unit: "cpu ns/timer", better: .lower, value: native,
                baselineName: "raw C libevent timers", baseline: raw,
                note: "one libevent event per timer through the Swift registration API"),
        ]
    }

    static func loopScheduler(_ count: Int, _ spreadMicroseconds: Int) -> Double {
        let counter = LoopCounter(target: count)
        let scheduler = LoopScheduler.main
        let cpuStart = clb_thread_cpu_ns()
        let origin = MonotonicInstant.now()
        for index in 0..<count {
            let offset = Int64(Double(index) * Double(spreadMicroseconds) / Double(count)) * 1_000
            scheduler.schedule(after: origin.advanced(by: .init(nanoseconds: offset)), tolerance: .zero, options: nil) {
                counter.tick()
            }
        }
        runMainLoop(until: { counter.done })
        let cpu = clb_thread_cpu_ns() - cpuStart
        blackhole(counter.count)
        return Double(cpu) / Double(count)
    }

    static func eventLoopTimers(_ count: Int, _ spreadMicroseconds: Int) -> Double {
        let counter = LoopCounter(target: count)
        let loop = EventLoop.main
        var registrations: [EventRegistration] = []
        registrations.reserveCapacity(count)
        let cpuStart = clb_thread_cpu_ns()
        for index in 0..<count {
            let offset = Int64(Double(index) * Double(spreadMicroseconds) / Double(count)) * 1_000
            registrations.append(loop.scheduleTimer(after: .init(nanoseconds: offset)) { counter.tick() })
        }
        runMainLoop(until: { counter.done })
        registrations.removeAll()
        let cpu = clb_thread_cpu_ns() - cpuStart
        blackhole(counter.count)
        return Double(cpu) / Double(count)
    }

    static func rawTimers(_ count: Int, _ spreadMicroseconds: Int) -> Double {
        var cpu: UInt64 = 0
        var wall: UInt64 = 0
        let fired = clb_timers(count, spreadMicroseconds, &cpu, &wall)
        precondition(fired == count, "raw timers fired \(fired) of \(count)")
        blackhole(fired)
        return Double(cpu) / Double(count)
    }
}
