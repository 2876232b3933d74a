import CLibevent
import Synchronization

/// Which thread runs an `EventLoop`, and its stop request: the part of the loop that code which
/// runs *after* a user callback needs (the flush's after-pass hook, the timer queue).
///
/// It is a class of its own, held strongly by those parts, so that they never reach the loop
/// itself: a callback may drop the last reference to an adopted loop (the teardown order the
/// adopting docs prescribe, while C code runs `event_base_loop`), and what runs after that
/// callback returns must find this state alive. The base it breaks is the loop's; an adopted
/// base outlives the loop by contract, and a base the loop owns is only run by `run()`/`runOnce`,
/// whose caller holds the loop for the call.
final class LoopRunState: @unchecked Sendable {
    let base: OpaquePointer
    /// The main loop's owner thread is fixed at creation.
    let isMain: Bool
    /// The thread the loop belongs to (see `EventLoop`'s doc).
    let ownerThread = Atomic<UInt>(0)
    /// The thread inside `run()`/`runOnce`, 0 when none.
    let runningThread = Atomic<UInt>(0)
    /// A `stop()` not consumed yet: the stop state machine. `stop()` (any thread) moves it from
    /// `false` to `true`; exactly one consumer moves it back, with an exchange: the check after a
    /// flush pass (which breaks the loop) or `runOnce` on its way out (which then returns
    /// `false`). Nothing else clears it, so a stop that races with the end of an iteration ends
    /// the next iteration instead of vanishing.
    let stopRequested = Atomic<Bool>(false)
    /// Stops consumed by the after-pass check, so that `runOnce` learns its iteration was
    /// stopped. Touched only by the thread running the loop's callbacks.
    var stopsTaken = 0
    /// Inside `runOnce`: the flush pass ends the iteration. Running thread only.
    var drivenOnce = false
    /// `runOnce` calls started so far. Written by the running thread only; read (relaxed) under
    /// the flush's lock on any thread, to date its deadline timer.
    let onceCalls = Atomic<UInt64>(0)
    /// `shutdown()` ran (set once, first thing).
    let isShutDown = Atomic<Bool>(false)

    init(base: OpaquePointer, isMain: Bool) {
        self.base = base
        self.isMain = isMain
        ownerThread.store(currentThreadID(), ordering: .relaxed)
    }

    /// Notes that a callback runs on this thread: adopted bases are run by foreign code.
    @inline(__always)
    func noteLoopThread() {
        if !isMain { ownerThread.store(currentThreadID(), ordering: .releasing) }
    }

    /// After each flush pass (loop thread): consume a stop and break the loop; inside `runOnce`,
    /// break anyway: the pass ends the iteration.
    func afterFlushPass() {
        if stopRequested.load(ordering: .relaxed), stopRequested.exchange(false, ordering: .acquiringAndReleasing) {
            stopsTaken &+= 1
            event_base_loopbreak(base)
        } else if drivenOnce {
            event_base_loopbreak(base)
        }
    }

    /// Consumes a pending stop request, if there is one (exactly one caller gets `true`).
    func takeStopRequest() -> Bool {
        stopRequested.load(ordering: .relaxed) && stopRequested.exchange(false, ordering: .acquiringAndReleasing)
    }
}
