import CLibeventBaseline
import Dispatch
import LoopScheduler

/// State that benchmark closures share with the driver. Touched only on the main loop's thread
/// (the closures run there), so the unchecked conformance is honest.
final class LoopCounter: @unchecked Sendable {
    var count = 0
    var target = 0
    var endNanoseconds: UInt64 = 0

    init(target: Int) {
        self.target = target
    }

    /// Counts one action; stamps the time when the last one runs.
    @inline(__always)
    func tick() {
        count += 1
        if count == target { endNanoseconds = nowNanoseconds() }
    }

    var done: Bool { count >= target }
}

/// Runs `EventLoop.main` (on the main thread) one iteration at a time until `done()`.
func runMainLoop(until done: () -> Bool) {
    let loop = EventLoop.main
    while !done() {
        loop.runOnce(blocking: true)
    }
}
