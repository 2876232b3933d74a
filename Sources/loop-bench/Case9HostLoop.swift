import Foundation
import LoopScheduler

/// Case 9: one loop iteration driven by a host loop (`HostLoopDriver`: `prepare()`, `poll(2)` on
/// its descriptor, `dispatch()`), as GLib drives us under GTK, against the same iteration run by
/// `runOnce(blocking: true)`. Each iteration runs one zero-delay timer that re-arms itself (so
/// every iteration polls), on a loop that also watches 10 idle pipes, like a GUI's few
/// descriptors; the host's per-iteration cost grows with the base's events (it mirrors them).
enum HostLoopBench {
    static func run(_ settings: RunSettings) -> [Row] {
        let iterations = settings.size(100_000, quick: 2_000)
        let (hosted, direct) = measurePair(
            runs: settings.runs, { chain(iterations, hosted: true) }, { chain(iterations, hosted: false) })
        return [
            Row(
                name: "9 host-driven iteration vs runOnce", unit: "ns/iteration", better: .lower, value: hosted,
                baselineName: "runOnce(blocking: true)", baseline: direct,
                note:
                    "\(iterations) iterations, a self re-arming zero timer and 10 idle watched pipes; host: prepare + poll + dispatch"
            )
        ]
    }

    /// ns per iteration of a chain of `count` zero-delay timers on a fresh loop.
    static func chain(_ count: Int, hosted: Bool) -> Double {
        let loop = try! EventLoop()
        var pipes: [(Int32, Int32)] = []
        var watches: [EventRegistration] = []
        for _ in 0..<10 {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            pipes.append((fds[0], fds[1]))
            watches.append(loop.watch(fd: fds[0], events: .read) { _ in })
        }
        defer {
            for watch in watches { watch.cancel() }
            for (r, w) in pipes {
                close(r)
                close(w)
            }
        }
        var remaining = count
        var timer: EventRegistration?
        func arm() {
            timer = loop.scheduleTimer(after: .zero) {
                remaining -= 1
                if remaining > 0 { arm() }
            }
        }
        arm()
        let start = nowNanoseconds()
        if hosted {
            let driver = try! loop.makeHostDriver()
            var entry = pollfd(fd: driver.descriptor, events: Int16(POLLIN), revents: 0)
            while remaining > 0 {
                let timeout = driver.prepareMilliseconds()
                _ = poll(&entry, 1, timeout)
                driver.dispatch()
            }
            driver.invalidate()
        } else {
            while remaining > 0 { loop.runOnce(blocking: true) }
        }
        let elapsed = nowNanoseconds() - start
        timer?.cancel()
        blackhole(remaining)
        return Double(elapsed) / Double(count)
    }
}
