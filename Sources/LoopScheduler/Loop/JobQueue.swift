import CLibevent
import Synchronization

/// The FIFO behind `EventLoop.execute` and `LoopScheduler.schedule`: closures queued from any
/// thread, run on the loop's thread by one `event_active`'d wake event.
///
/// Two queues, one order:
/// - `shared` takes work from other threads, under `lock`.
/// - `local` takes work the loop's own thread queues while it runs the loop, without a lock
///   (only that thread touches it) — but only while `shared` is empty. Otherwise the work goes
///   behind the shared work, under the lock.
///
/// So at any moment every local entry precedes every shared entry, and `drain` (local first, then
/// shared) runs work in the order it was queued, whichever queue holds it. Work queued while a
/// batch runs goes behind the batch.
///
/// The state lives behind raw pointers: the lock (or the loop thread) is what makes access
/// exclusive, and plain loads and stores avoid Swift's dynamic exclusivity checks on class
/// properties in this hot path (rows "1 schedule burst" and "1b schedule chain"). The pointers
/// live exactly as long as the queue (allocated in init, freed in deinit).
final class JobQueue: @unchecked Sendable {
    /// One queued closure. The struct matters: a generic buffer (an array, a pointer) of bare
    /// closures stores them at maximal abstraction, so every append would allocate a
    /// reabstraction thunk around the closure.
    struct Job {
        let run: () -> Void
    }

    /// Guarded by `lock`.
    private struct Shared {
        var jobs = JobBuffer()
        /// The wake event was activated for `jobs` and `drain` has not taken them yet.
        var wakePending = false
        /// `close()` ran: the wake event is freed and no work is taken any more.
        var closed = false
    }

    /// Loop thread only.
    private struct Local {
        var jobs = JobBuffer()
        var wakePending = false
        /// Empty buffers with kept capacity, swapped in by `drain`.
        var spare = JobBuffer()
        var sharedSpare = JobBuffer()
    }

    private let lock = Lock()
    private let shared: UnsafeMutablePointer<Shared>
    private let local: UnsafeMutablePointer<Local>
    /// `true` while `shared` holds work (set with `wakePending` under the lock, cleared by
    /// `drain`); read by the loop thread without the lock to choose a queue.
    private let sharedHasWork = Atomic<Bool>(false)
    /// Set by `close()`; `drain` checks it between jobs, so a job that shuts the loop down is the
    /// last one to run.
    private let closedFlag = Atomic<Bool>(false)
    /// The loop's wake event, activated for the first job after a drain. Set once by the loop
    /// before the queue is shared; freed by `close()`. Activated from other threads only under
    /// `lock` after checking `closed`, so that `close()` (which sets `closed` under `lock` and
    /// frees the event after it) cannot free it under their feet.
    var wakeEvent: OpaquePointer?

    /// Largest buffer kept for reuse when the batch it carried used less than a quarter of it
    /// (entries; 16 bytes each). Buffers that stay busy keep their capacity at any size.
    private static let idleCapacityLimit = 1 << 16

    init() {
        shared = .allocate(capacity: 1)
        shared.initialize(to: Shared())
        local = .allocate(capacity: 1)
        local.initialize(to: Local())
    }

    deinit {
        // Work never run is released here, on whichever thread drops the loop.
        shared.pointee.jobs.free()
        local.pointee.jobs.free()
        local.pointee.spare.free()
        local.pointee.sharedSpare.free()
        shared.deinitialize(count: 1)
        shared.deallocate()
        local.deinitialize(count: 1)
        local.deallocate()
    }

    /// Queues `work` from any thread, activating the wake event for the first entry since the
    /// last `drain`. Returns `false` (and drops nothing: `work` was not taken) after `close()`.
    func push(_ work: @escaping () -> Void) -> Bool {
        lock.withLock {
            if shared.pointee.closed { return false }
            shared.pointee.jobs.append(Job(run: work))
            if shared.pointee.wakePending { return true }
            shared.pointee.wakePending = true
            sharedHasWork.store(true, ordering: .releasing)
            // Under the lock: `close()` frees the event under it. `event_active` never waits.
            event_active(wakeEvent, 0, 0)
            return true
        }
    }

    /// Queues `work` from the thread that is running the loop right now (inside `run()` or
    /// `runOnce`), without the lock unless other threads' work is waiting. Returns `false` after
    /// `close()`.
    @inline(__always)
    func pushFromLoopThread(_ work: @escaping () -> Void) -> Bool {
        if sharedHasWork.load(ordering: .acquiring) || closedFlag.load(ordering: .relaxed) { return push(work) }
        local.pointee.jobs.append(Job(run: work))
        if local.pointee.wakePending { return true }
        local.pointee.wakePending = true
        // The loop thread is the only one that closes the queue, so the event is alive here.
        event_active(wakeEvent, 0, 0)
        return true
    }

    /// Frees the wake event and releases every job not run yet, unrun; later pushes return
    /// `false`. The loop's thread (or any thread while the loop does not run). Idempotent.
    func close() {
        var taken = JobBuffer()
        let event = lock.withLock { () -> OpaquePointer? in
            shared.pointee.closed = true
            closedFlag.store(true, ordering: .relaxed)
            swap(&taken, &shared.pointee.jobs)
            sharedHasWork.store(false, ordering: .relaxed)
            defer { wakeEvent = nil }
            return wakeEvent
        }
        // No other thread activates it once `closed` is set; freed after the lock, which the
        // wake event's callback (`drain`) takes.
        if let event { event_free(event) }
        local.pointee.wakePending = false
        // Released outside the lock: a job's captures may run deinits that queue work.
        taken.free()
        local.pointee.jobs.free()
    }

    /// Whether work queued from outside the loop's run waits (the leak diagnostic). Any thread;
    /// work the loop's thread queued for itself during a run is not counted (that queue has no
    /// lock).
    var hasSharedWork: Bool {
        lock.withLock { shared.pointee.jobs.count > 0 }
    }

    /// Whether work was queued since the last `drain` took its batch. Loop thread only.
    var hasWorkWaiting: Bool {
        local.pointee.wakePending || sharedHasWork.load(ordering: .acquiring)
    }

    /// Runs everything queued so far, local entries first (they precede every shared entry).
    /// Loop thread only; not re-entrant (work cannot run the loop again).
    func drain() {
        var first = JobBuffer()
        swap(&first, &local.pointee.spare)
        swap(&first, &local.pointee.jobs)
        local.pointee.wakePending = false

        var second = JobBuffer()
        // A push racing with this check activates the wake event itself: it is not lost.
        let takeShared = sharedHasWork.load(ordering: .acquiring)
        if takeShared {
            swap(&second, &local.pointee.sharedSpare)
            lock.withLock {
                swap(&second, &shared.pointee.jobs)
                shared.pointee.wakePending = false
                sharedHasWork.store(false, ordering: .relaxed)
            }
        }

        let firstCount = first.runAll(unless: closedFlag)
        let secondCount = second.runAll(unless: closedFlag)

        JobQueue.recycle(&first, used: firstCount, into: &local.pointee.spare)
        if takeShared { JobQueue.recycle(&second, used: secondCount, into: &local.pointee.sharedSpare) }
    }

    /// Keeps the (empty) buffer of a batch as `spare`, unless it is big and the batch used less
    /// than a quarter of it (a burst long past): then it is freed.
    private static func recycle(_ batch: inout JobBuffer, used: Int, into spare: inout JobBuffer) {
        if batch.capacity > idleCapacityLimit && used < batch.capacity / 4 {
            batch.free()
            return
        }
        swap(&batch, &spare)
    }
}

/// A growable array of jobs, managed by hand so that `runAll` can move each job out, run it and
/// release it at once (while its closure context is still in cache), with no uniqueness checks.
/// A plain struct holding a raw buffer: `JobQueue` keeps exactly one copy of each and swaps them;
/// `free()` must be called once for a buffer that is dropped.
struct JobBuffer {
    private var base: UnsafeMutablePointer<JobQueue.Job>?
    private(set) var count = 0
    private(set) var capacity = 0

    init() {}

    @inline(__always)
    mutating func append(_ job: JobQueue.Job) {
        if count == capacity { grow() }
        (base.unsafelyUnwrapped + count).initialize(to: job)
        count += 1
    }

    private mutating func grow() {
        let newCapacity = Swift.max(64, capacity * 2)
        let newBase = UnsafeMutablePointer<JobQueue.Job>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }

    /// Runs the jobs in order, releasing each right after it ran; leaves the buffer empty with its
    /// capacity. Once `closed` is set (a job shut the loop down) the rest are released unrun.
    /// Returns how many there were. The caller holds the only copy of this buffer, so the jobs
    /// cannot append to it.
    mutating func runAll(unless closed: borrowing Atomic<Bool>) -> Int {
        let ran = count
        guard let base, ran > 0 else { return 0 }
        count = 0
        for index in 0..<ran {
            if closed.load(ordering: .relaxed) {
                (base + index).deinitialize(count: ran - index)
                break
            }
            (base + index).move().run()
        }
        return ran
    }

    /// Releases the jobs and the storage; the buffer is empty afterwards.
    mutating func free() {
        if let base {
            base.deinitialize(count: count)
            base.deallocate()
        }
        self = JobBuffer()
    }
}
