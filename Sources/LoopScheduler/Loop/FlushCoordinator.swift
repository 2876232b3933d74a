import CLibevent

/// The end-of-iteration flush: services signalled `LoopEventSource`s once per loop iteration,
/// after the iteration's ordinary callbacks and before the loop blocks again.
///
/// Mechanism (libevent 2.1 facts from ARCHITECTURE.md):
/// - `flushEvent` sits at the base's lowest priority and is made ready with `event_active`
///   (thread-safe, merges repeated activations). libevent runs a lower priority only once every
///   higher priority is empty, so it runs after the iteration's callbacks (guarantees 1, 2, 4).
/// - A request made while a flush runs must not run in the same pass (the lowest queue is being
///   drained, an activation would run at once and could livelock). It arms `rearmTimer`, a
///   zero-timeout timer at the same priority: it fires after the next poll, so the loop does not
///   block but the update lands in the next iteration (guarantee 3). Bug #1530 is why the timer
///   and the activation are two different events.
/// - `deadlineTimer` at the highest priority bounds the delay when busy higher-priority work
///   keeps the lowest queue starved: if the flush has not started within `maximumDelay`, the
///   timer runs it (guarantee 5). Our own bases also cap one queue's processing at
///   `EventLoop.callbacksPerPass` callbacks (`event_config_set_max_dispatch_interval` with a count
///   and no time slice, which would read the clock after every callback), so the loop polls,
///   processes its timers and sees the deadline timer regularly.
/// - Sources are serviced by ascending `order`, then registration order (guarantee 6).
final class FlushCoordinator: @unchecked Sendable {
    /// Per-source state, all guarded by the coordinator's lock.
    ///
    /// Mutable state here and in the coordinator is `@exclusivity(unchecked)`: the lock (or the
    /// flushing thread's ownership) already serialises every access, and the runtime's dynamic
    /// exclusivity check costs about 80 instructions per access (`swift_beginAccess`), more than
    /// the rest of a signal.
    final class Slot {
        let order: Int
        let sequence: UInt64
        @exclusivity(unchecked) var waiting = 0
        @exclusivity(unchecked) var delivering: Int?
        @exclusivity(unchecked) var cancelled = false
        @exclusivity(unchecked) var queued = false
        @exclusivity(unchecked) var handler: ((LoopEventSource) -> Void)?
        weak var source: LoopEventSource?

        init(order: Int, sequence: UInt64, handler: @escaping (LoopEventSource) -> Void) {
            self.order = order
            self.sequence = sequence
            self.handler = handler
        }

        /// Flush order (guarantee 6): ascending `order`, then creation.
        @inline(__always)
        func precedes(_ other: Slot) -> Bool {
            order != other.order ? order < other.order : sequence < other.sequence
        }
    }

    private let lock = Lock()
    /// Signalled slots waiting for the next pass, in signal order.
    @exclusivity(unchecked) private var queuedSlots: [Slot] = []
    /// Whether some slot was appended to `queuedSlots` before one that precedes it in flush
    /// order. Sources usually signal in creation order (a burst over a list of models), so the
    /// pass sorts only when this is set, instead of sorting every batch.
    @exclusivity(unchecked) private var queuedOutOfOrder = false
    /// The batch being delivered, swapped with `queuedSlots` so both keep their capacity (no
    /// array allocation per pass). Touched only by the flushing thread, outside the lock.
    @exclusivity(unchecked) private var deliveringSlots: [Slot] = []
    @exclusivity(unchecked) private var nextSequence: UInt64 = 0
    @exclusivity(unchecked) private var pending = false
    @exclusivity(unchecked) private var flushing = false
    @exclusivity(unchecked) private var flushThread: UInt = 0

    private let maximumDelay: timeval
    private var flushEvent: OpaquePointer!
    private var rearmTimer: OpaquePointer!
    private var deadlineTimer: OpaquePointer!
    private let boxes: [CallbackBox]
    /// Called on the loop thread after each flush pass (the loop checks for `stop()` there).
    private let afterPass: () -> Void

    @exclusivity(unchecked) private var passCount = 0

    /// Number of flush passes that delivered at least one source (for tests and diagnostics).
    var completedPasses: Int { lock.withLock { passCount } }

    init(
        base: OpaquePointer, flushPriority: Int32, urgentPriority: Int32,
        maximumDelay: MonotonicInstant.Stride, afterPass: @escaping () -> Void
    ) {
        self.maximumDelay = maximumDelay.timevalRoundedUp
        self.afterPass = afterPass
        let flushBox = CallbackBox { _, _ in }
        let rearmBox = CallbackBox { _, _ in }
        let deadlineBox = CallbackBox { _, _ in }
        boxes = [flushBox, rearmBox, deadlineBox]
        flushEvent = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: flushPriority, box: flushBox)
        rearmTimer = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: flushPriority, box: rearmBox)
        deadlineTimer = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: urgentPriority, box: deadlineBox)
        // The boxes capture the coordinator unowned: it frees the events before it goes away.
        flushBox.body = { [unowned self] _, _ in self.pass() }
        rearmBox.body = { [unowned self] _, _ in self.pass() }
        deadlineBox.body = { [unowned self] _, _ in self.pass() }
    }

    deinit {
        event_free(flushEvent)
        event_free(rearmTimer)
        event_free(deadlineTimer)
        for box in boxes { box.body = nil }
    }

    // MARK: Sources

    func makeSlot(order: Int, handler: @escaping (LoopEventSource) -> Void) -> Slot {
        lock.withLock {
            defer { nextSequence += 1 }
            return Slot(order: order, sequence: nextSequence, handler: handler)
        }
    }

    /// Counts a signal for `slot` and requests a flush. Any thread.
    func signal(_ slot: Slot) {
        let activate = lock.withLock { () -> Bool in
            guard !slot.cancelled else { return false }
            slot.waiting += 1
            if !slot.queued {
                slot.queued = true
                if let last = queuedSlots.last, slot.precedes(last) { queuedOutOfOrder = true }
                queuedSlots.append(slot)
            }
            return requestLocked()
        }
        if activate { activateFlush() }
    }

    func mergedCount(_ slot: Slot) -> Int {
        lock.withLock {
            if let delivering = slot.delivering, flushThread == currentThreadID() {
                return delivering
            }
            return slot.waiting
        }
    }

    func cancel(_ slot: Slot) {
        let handler = lock.withLock { () -> ((LoopEventSource) -> Void)? in
            slot.cancelled = true
            slot.waiting = 0
            defer { slot.handler = nil }
            return slot.handler
        }
        _ = handler  // released here, outside the lock
    }

    // MARK: Requests

    /// Requests a flush pass with no source signalled (used by `stop()` so the loop breaks after
    /// the iteration's flush). Any thread.
    func requestPass() {
        activateFlush()
    }

    /// Marks a flush pending; returns whether the caller must activate the flush event.
    private func requestLocked() -> Bool {
        if pending { return false }
        pending = true
        return !flushing
    }

    private func activateFlush() {
        event_active(flushEvent, 0, 0)
        var delay = maximumDelay
        event_add(deadlineTimer, &delay)
    }

    // MARK: The pass (loop thread)

    private func pass() {
        runFlushIfPending()
        afterPass()
    }

    private func runFlushIfPending() {
        let sort = lock.withLock { () -> Bool? in
            guard pending, !flushing else { return nil }
            pending = false
            flushing = true
            flushThread = currentThreadID()
            swap(&queuedSlots, &deliveringSlots)
            for slot in deliveringSlots {
                slot.queued = false
                slot.delivering = slot.waiting
                slot.waiting = 0
            }
            defer { queuedOutOfOrder = false }
            return queuedOutOfOrder
        }
        guard let sort else { return }
        // Whichever event got here first, the others are no longer needed for this request.
        event_del(flushEvent)
        event_del(rearmTimer)
        event_del(deadlineTimer)

        // Owned by this pass (flushing is set), so sorted outside the lock.
        if sort { deliveringSlots.sort { $0.precedes($1) } }
        var delivered = false
        for slot in deliveringSlots {
            let call = lock.withLock { () -> (((LoopEventSource) -> Void), LoopEventSource)? in
                guard !slot.cancelled, let handler = slot.handler, let source = slot.source,
                    let count = slot.delivering, count > 0
                else {
                    slot.delivering = nil
                    return nil
                }
                return (handler, source)
            }
            guard let (handler, source) = call else { continue }
            delivered = true
            handler(source)
            lock.withLock { slot.delivering = nil }
        }

        // Released outside the lock; the capacity stays for the next pass.
        deliveringSlots.removeAll(keepingCapacity: true)
        let again = lock.withLock { () -> Bool in
            flushing = false
            flushThread = 0
            if delivered { passCount += 1 }
            return pending
        }
        if again {
            // Requested during this flush: next iteration, without blocking (guarantee 3).
            var zero = timeval(tv_sec: 0, tv_usec: 0)
            event_add(rearmTimer, &zero)
            var delay = maximumDelay
            event_add(deadlineTimer, &delay)
        }
    }
}
