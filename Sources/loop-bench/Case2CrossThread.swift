import Dispatch
import Foundation
import LoopScheduler

/// Case 2: four threads sending work into the main loop with `EventLoop.execute`, against
/// `DispatchQueue.main.async` from four threads, both drained by the same main loop.
enum CrossThreadScheduling {
    static let threads = 4

    static func run(_ settings: RunSettings) -> [Row] {
        let perThread = settings.size(250_000, quick: 5_000)
        let (ours, dispatch) = measurePair(
            runs: settings.runs,
            { send(perThread: perThread) { counter in EventLoop.main.execute { counter.tick() } } },
            { send(perThread: perThread) { counter in DispatchQueue.main.async { counter.tick() } } })
        return [
            Row(
                name: "2 execute from \(threads) threads", unit: "actions/s", better: .higher, value: ours,
                baselineName: "DispatchQueue.main.async from \(threads) threads", baseline: dispatch,
                note: "\(threads) x \(perThread) sends, timed from the start signal to the last action on the main loop"
            )
        ]
    }

    /// Starts `threads` senders behind a gate, opens it, runs the main loop until every action
    /// ran; returns actions per second.
    static func send(perThread: Int, _ post: @escaping @Sendable (LoopCounter) -> Void) -> Double {
        let total = threads * perThread
        let counter = LoopCounter(target: total)
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            let thread = Thread {
                gate.wait()
                for _ in 0..<perThread { post(counter) }
                finished.leave()
            }
            thread.start()
        }
        let start = nowNanoseconds()
        for _ in 0..<threads { gate.signal() }
        runMainLoop(until: { counter.done })
        finished.wait()
        blackhole(counter.count)
        return Double(total) / (Double(counter.endNanoseconds - start) / 1e9)
    }
}
