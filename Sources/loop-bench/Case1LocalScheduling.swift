import CLibeventBaseline
import Dispatch
import LoopScheduler

/// Case 1: `LoopScheduler.schedule` from the loop thread, against raw libevent re-activation and
/// `DispatchQueue.main.async` on the same main loop.
enum LocalScheduling {
    static func run(_ settings: RunSettings) -> [Row] {
        let count = settings.size(1_000_000, quick: 20_000)
        let runs = settings.runs

        // Raw C floor on a plain base, and on EventLoop.main's own base (same priorities and
        // callback cap as ours), measured once each per run, alternated.
        let (rawPlain, rawOurBase) = measurePair(
            runs: runs, { rawReactivation(count, onMainBase: false) }, { rawReactivation(count, onMainBase: true) })

        let (burst, dispatchBursts) = measurePair(runs: runs, { loopBurst(count) }, { dispatchBurst(count) })
        // Chains are a fifth of the size: a DispatchQueue.main hop per iteration is slow, and the
        // figure is per action anyway.
        let chainCount = count / 5
        let (chain, dispatchChain) = measurePair(
            runs: runs, { loopChain(chainCount) }, { dispatchChainRun(chainCount) })

        let cBaseline = "raw C libevent re-activation"
        return [
            Row(
                name: "1 schedule burst vs raw libevent", unit: "ns/action", better: .lower, value: burst,
                baselineName: cBaseline, baseline: rawPlain,
                target: "<= 1.5x raw libevent", met: burst.median <= 1.5 * rawPlain.median,
                note: "\(count) schedule { } calls made inside one loop callback, timed until the last action ran"),
            Row(
                name: "1 schedule burst vs DispatchQueue.main", unit: "ns/action", better: .lower, value: burst,
                baselineName: "DispatchQueue.main.async burst", baseline: dispatchBursts,
                target: ">= 3x faster than DispatchQueue.main", met: burst.median * 3 <= dispatchBursts.median),
            Row(
                name: "1b schedule chain vs raw libevent", unit: "ns/action", better: .lower, value: chain,
                baselineName: cBaseline, baseline: rawPlain,
                note: "\(chainCount) actions, each scheduling the next (like the C event re-activating itself)"),
            Row(
                name: "1b schedule chain vs DispatchQueue.main", unit: "ns/action", better: .lower, value: chain,
                baselineName: "DispatchQueue.main.async chain", baseline: dispatchChain),
            Row(
                name: "1c raw libevent on EventLoop.main's base", unit: "ns/action", better: .lower, value: rawOurBase,
                baselineName: "raw C on a plain base", baseline: rawPlain,
                note: "the same C loop on our base: 3 priorities and a 256-callback cap per pass"),
        ]
    }

    static func rawReactivation(_ count: Int, onMainBase: Bool) -> Double {
        var elapsed: UInt64 = 0
        let base = onMainBase ? UnsafeMutableRawPointer(EventLoop.main.base) : nil
        let fired = clb_reactivate_one_event(base, count, onMainBase ? 1 : -1, &elapsed)
        precondition(fired == count, "raw re-activation ran \(fired) of \(count)")
        blackhole(fired)
        return Double(elapsed) / Double(count)
    }

    /// `count` schedule calls from inside one loop callback; timed from the first call to the
    /// last action.
    static func loopBurst(_ count: Int) -> Double {
        let counter = LoopCounter(target: count)
        let scheduler = LoopScheduler.main
        let start = Box<UInt64>(0)
        scheduler.schedule {
            start.value = nowNanoseconds()
            for _ in 0..<count {
                scheduler.schedule { counter.tick() }
            }
        }
        runMainLoop(until: { counter.done })
        blackhole(counter.count)
        return Double(counter.endNanoseconds - start.value) / Double(count)
    }

    static func dispatchBurst(_ count: Int) -> Double {
        let counter = LoopCounter(target: count)
        let start = Box<UInt64>(0)
        DispatchQueue.main.async {
            start.value = nowNanoseconds()
            for _ in 0..<count {
                DispatchQueue.main.async { counter.tick() }
            }
        }
        runMainLoop(until: { counter.done })
        blackhole(counter.count)
        return Double(counter.endNanoseconds - start.value) / Double(count)
    }

    /// Each action schedules the next one.
    static func loopChain(_ count: Int) -> Double {
        let chain = LoopChain(target: count)
        let start = nowNanoseconds()
        chain.step()
        runMainLoop(until: { chain.counter.done })
        blackhole(chain.counter.count)
        return Double(chain.counter.endNanoseconds - start) / Double(count)
    }

    static func dispatchChainRun(_ count: Int) -> Double {
        let chain = DispatchChain(target: count)
        let start = nowNanoseconds()
        chain.step()
        runMainLoop(until: { chain.counter.done })
        blackhole(chain.counter.count)
        return Double(chain.counter.endNanoseconds - start) / Double(count)
    }
}

/// A mutable value shared with loop closures (main-loop thread only).
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

final class LoopChain: @unchecked Sendable {
    let counter: LoopCounter
    let scheduler = LoopScheduler.main

    init(target: Int) { counter = LoopCounter(target: target) }

    func step() {
        scheduler.schedule { [self] in
            counter.tick()
            if !counter.done { step() }
        }
    }
}

final class DispatchChain: @unchecked Sendable {
    let counter: LoopCounter

    init(target: Int) { counter = LoopCounter(target: target) }

    func step() {
        DispatchQueue.main.async { [self] in
            counter.tick()
            if !counter.done { step() }
        }
    }
}
