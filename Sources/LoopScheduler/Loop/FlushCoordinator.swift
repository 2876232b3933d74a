import CLibevent
import Synchronization

/// The end-of-iteration flush: services signalled `LoopEventSource`s once per loop iteration,
/// after the iteration's ordinary callbacks and before the loop blocks again.
///
/// Mechanism (libevent 2.1 facts from docs/ARCHITECTURE.md):
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
/// - Threads: `signal`, `requestPass` and `cancel` from any thread, the passes on the loop's
///   thread, `close` on the loop's thread or while the loop does not run. Under the lock (which
///   the passes take) only calls that never wait for a callback are made: `event_active`,
///   `event_add` and `event_del_noblock`; `close` frees the events after releasing it.
/// - Inside `runOnce` a pass ends the iteration, and there is one pass per call. A deadline timer
///   armed before the call began (a flush left overdue while nobody ran the loop) does not flush:
///   it requests the ordinary pass, so the callbacks already ready when the call polled
///   (main-queue blocks, `execute` work) run first, and what that one pass's handlers signal
///   belongs to the next call, overdue or not.
final class FlushCoordinator: @unchecked Sendable {
    /// Per-source state.
    ///
    /// `state` is atomic so that `signal()` on a source that is already queued takes no lock:
    /// its low bits count the signals waiting, `cancelledBit` marks a cancelled source. A slot is
    /// in `queuedSlots` exactly when its count went from 0 to non-zero and the pass has not
    /// taken it yet: only the signal that saw 0 appends it, only the pass zeroes the count.
    /// `cancel()` sets `cancelledBit`, which no pass clears, so no later signal queues the slot.
    /// `handler` is guarded by the coordinator's lock; `delivering` belongs to the flushing
    /// thread. Mutable state here and in the coordinator is `@exclusivity(unchecked)`: the lock
    /// (or the flushing thread's ownership) already serialises every access, and the runtime's
    /// dynamic exclusivity check costs about 80 instructions per access (`swift_beginAccess`),
    /// which showed in the `make bench` rows "4 coalescing, per change" and "4 coalescing, per
    /// updateView()" (the signal and pass paths).
    final class Slot {
        static let cancelledBit = 1 << 62
        let order: Int
        let sequence: UInt64
        let state = Atomic<Int>(0)
        /// Index in the coordinator's `liveSlots` (-1 once cancelled); guarded by its lock.
        @exclusivity(unchecked) var liveIndex = -1
        /// The merged count of the call in progress (0 outside a delivery). Flushing thread only.
        @exclusivity(unchecked) var delivering = 0
        @exclusivity(unchecked) var handler: ((LoopEventSource) -> Void)?
        /// Instead of `handler`, for a source made with a target: called directly, with no
        /// closure context and no load of the (weak) source. Guarded like `handler`.
        @exclusivity(unchecked) var target: (any LoopFlushTarget)?
        /// Weak: dropping the last reference to a source cancels it (its deinit), even while it
        /// is queued or an earlier handler of the same pass drops it. Written once before the
        /// source is shared; loaded lock-free (weak loads are atomic).
        @exclusivity(unchecked) weak var source: LoopEventSource?

        init(
            order: Int, sequence: UInt64, handler: ((LoopEventSource) -> Void)?, target: (any LoopFlushTarget)?
        ) {
            self.order = order
            self.sequence = sequence
            self.handler = handler
            self.target = target
        }

        /// Flush order (guarantee 6): ascending `order`, then creation.
        @inline(__always)
        func precedes(_ other: Slot) -> Bool {
            order != other.order ? order < other.order : sequence < other.sequence
        }

        var isCancelled: Bool { state.load(ordering: .relaxed) & Slot.cancelledBit != 0 }
    }

    /// One handler call of a pass, taken under the lock for the whole batch at once. The source
    /// is loaded only when its turn comes, so one dropped by an earlier handler is not called.
    struct Call {
        // Kept alive by `deliveringSlots` for the whole pass (it is emptied only after the last
        // call); unmanaged, so reaching it costs no retain and release per call (row "4
        // coalescing, per updateView()").
        let slot: Unmanaged<Slot>
        // Exactly one of the two is set.
        let handler: ((LoopEventSource) -> Void)?
        let target: (any LoopFlushTarget)?
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
    /// The calls of the pass being delivered (flushing thread only; capacity kept).
    @exclusivity(unchecked) private var calls: [Call] = []
    @exclusivity(unchecked) private var nextSequence: UInt64 = 0
    @exclusivity(unchecked) private var pending = false
    @exclusivity(unchecked) private var flushing = false
    /// `close()` ran: the events are freed; nothing may touch them (checked under the lock, where
    /// every activation happens).
    @exclusivity(unchecked) private var closed = false
    /// Every slot not cancelled yet, so that `close()` can cancel their sources (holes are
    /// reused through `liveHoles`).
    @exclusivity(unchecked) private var liveSlots: [Slot?] = []
    @exclusivity(unchecked) private var liveHoles: [Int] = []
    /// The thread running a pass, 0 when none (read lock-free by `mergedCount`).
    private let flushThread = Atomic<UInt>(0)

    private let maximumDelay: timeval
    private var flushEvent: OpaquePointer!
    private var rearmTimer: OpaquePointer!
    private var deadlineTimer: OpaquePointer!
    private let boxes: [CallbackBox]
    /// The loop's run state: after each pass (loop thread) it checks for `stop()` and ends a
    /// `runOnce` iteration; its `onceCalls` dates the deadline timer.
    private let runState: LoopRunState
    /// `runState.onceCalls` when the deadline timer was last armed (under the lock).
    @exclusivity(unchecked) private var deadlineArmedInCall: UInt64 = 0
    /// Wakes a host loop driving the loop (libevent does not wake a base outside its loop).
    let hostWake = HostWake()

    @exclusivity(unchecked) private var passCount = 0

    /// Number of flush passes that delivered at least one source (for tests and diagnostics).
    var completedPasses: Int { lock.withLock { passCount } }

    init(
        base: OpaquePointer, flushPriority: Int32, urgentPriority: Int32,
        maximumDelay: MonotonicInstant.Stride, runState: LoopRunState
    ) {
        self.maximumDelay = maximumDelay.timevalRoundedUp
        self.runState = runState
        let flushBox = CallbackBox { _, _ in }
        let rearmBox = CallbackBox { _, _ in }
        let deadlineBox = CallbackBox { _, _ in }
        boxes = [flushBox, rearmBox, deadlineBox]
        flushEvent = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: flushPriority, box: flushBox)
        rearmTimer = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: flushPriority, box: rearmBox)
        deadlineTimer = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: urgentPriority, box: deadlineBox)
        // The boxes capture the coordinator unowned (safe kind; strong would be a cycle): it frees
        // the events (close/deinit) before it goes away, and a pass holds it for the call.
        flushBox.body = { [unowned self] _, _ in self.pass() }
        rearmBox.body = { [unowned self] _, _ in self.pass() }
        deadlineBox.body = { [unowned self] _, _ in self.deadlinePass() }
    }

    deinit {
        close()
    }

    /// Cancels every source (their handlers are released, later signals are ignored), frees the
    /// events and refuses later requests. On the loop's thread (or any while it does not run);
    /// also from a handler, the pass then stops after it. Idempotent.
    func close() {
        let slots = lock.withLock { () -> [Slot?]? in
            if closed { return nil }
            closed = true
            queuedSlots.removeAll()
            defer {
                liveSlots = []
                liveHoles = []
            }
            return liveSlots
        }
        guard let slots else { return }
        // `closed` is set: no other thread activates or arms the events any more. Freed after the
        // lock (the passes take it), on the loop's thread or while it does not run.
        event_free(flushEvent)
        event_free(rearmTimer)
        event_free(deadlineTimer)
        for box in boxes { box.body = nil }
        for case let slot? in slots { cancel(slot) }
    }

    // MARK: Sources

    /// A slot calling `handler` (with its source) or `target` (exactly one of them) in the
    /// passes that service its signals.
    func makeSlot(
        order: Int, handler: ((LoopEventSource) -> Void)?, target: (any LoopFlushTarget)? = nil
    ) -> Slot {
        lock.withLock {
            defer { nextSequence += 1 }
            let slot = Slot(order: order, sequence: nextSequence, handler: handler, target: target)
            if closed {
                slot.state.store(Slot.cancelledBit, ordering: .relaxed)
                slot.handler = nil
                slot.target = nil
            } else if let hole = liveHoles.popLast() {
                slot.liveIndex = hole
                liveSlots[hole] = slot
            } else {
                slot.liveIndex = liveSlots.count
                liveSlots.append(slot)
            }
            return slot
        }
    }

    /// Counts a signal for `slot` and requests a flush. Any thread.
    ///
    /// Only the signal that finds the count at 0 queues the slot and requests a pass; later ones
    /// (until the pass takes the count) only add to it, with one atomic operation and no lock.
    /// The read-modify-write also orders the caller's writes before the handler call that merges
    /// this signal.
    func signal(_ slot: Slot) {
        guard slot.state.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        lock.withLock {
            if closed { return }
            if let last = queuedSlots.last, slot.precedes(last) { queuedOutOfOrder = true }
            queuedSlots.append(slot)
            if requestLocked() { activateFlushLocked() }
        }
    }

    func mergedCount(_ slot: Slot) -> Int {
        // `delivering` is read only by the thread that writes it, the flushing one.
        if flushThread.load(ordering: .relaxed) == currentThreadID(), slot.delivering > 0 {
            return slot.delivering
        }
        let state = slot.state.load(ordering: .acquiring)
        return state & Slot.cancelledBit != 0 ? 0 : state
    }

    func cancel(_ slot: Slot) {
        let old = slot.state.bitwiseOr(Slot.cancelledBit, ordering: .acquiringAndReleasing).oldValue
        guard old & Slot.cancelledBit == 0 else { return }
        let released = lock.withLock { () -> (((LoopEventSource) -> Void)?, (any LoopFlushTarget)?) in
            let index = slot.liveIndex
            if index >= 0, index < liveSlots.count, liveSlots[index] === slot {
                liveSlots[index] = nil
                liveHoles.append(index)
            }
            slot.liveIndex = -1
            defer {
                slot.handler = nil
                slot.target = nil
            }
            return (slot.handler, slot.target)
        }
        withExtendedLifetime(released) {}  // released here, outside the lock
    }

    // MARK: Requests

    /// Requests a flush pass with no source signalled (used by `stop()` so the loop breaks after
    /// the iteration's flush, and by `runOnce` to end an iteration that work keeps extending).
    /// Any thread.
    func requestPass() {
        lock.withLock {
            if !closed { activateFlushLocked() }
        }
    }

    /// Marks a flush pending; returns whether the caller must activate the flush event.
    private func requestLocked() -> Bool {
        if pending { return false }
        pending = true
        return !flushing
    }

    /// Under the lock, where `close()` frees the events (`event_active` and `event_add` never
    /// wait for a callback, so holding the lock across them cannot deadlock).
    private func activateFlushLocked() {
        event_active(flushEvent, 0, 0)
        armDeadlineLocked()
        hostWake.notify()
    }

    private func armDeadlineLocked() {
        var delay = maximumDelay
        event_add(deadlineTimer, &delay)
        deadlineArmedInCall = runState.onceCalls.load(ordering: .relaxed)
    }

    // MARK: The pass (loop thread)

    private func pass() {
        runFlushIfPending()
        runState.afterFlushPass()
    }

    /// The deadline timer fired: the flush was starved for `maximumDelay`. Inside a `runOnce`
    /// whose own work starved it, the pass ends the iteration (guarantee 5). A timer armed before
    /// the call began only says that the flush is overdue (nobody ran the loop for a while): it
    /// does not flush here, it makes sure the ordinary pass at the end of this iteration runs,
    /// after the callbacks that were ready when the call polled (main-queue blocks, `execute`
    /// work). Flushing here as well gave two passes in one call, the second serving what the
    /// first had signalled (`updateView()` twice per iteration); ending the iteration here skipped
    /// the ready callbacks. `requestPass()` also re-arms the deadline for this call, so busy ready
    /// work cannot starve that pass beyond `maximumDelay` either.
    private func deadlinePass() {
        if runState.drivenOnce,
            lock.withLock({ deadlineArmedInCall != runState.onceCalls.load(ordering: .relaxed) })
        {
            requestPass()
            return
        }
        runFlushIfPending()
        runState.afterFlushPass()
    }

    private func runFlushIfPending() {
        let sort = lock.withLock { () -> Bool? in
            guard pending, !flushing, !closed else {
                // A pass with nothing signalled (`requestPass`): its deadline timer is not needed
                // any more. Under the lock, so it cannot delete the timer of a request that a
                // signal makes after this check (that one sets `pending` first, under the lock).
                if !pending, !closed { event_del_noblock(deadlineTimer) }
                return nil
            }
            pending = false
            flushing = true
            flushThread.store(currentThreadID(), ordering: .relaxed)
            swap(&queuedSlots, &deliveringSlots)
            defer { queuedOutOfOrder = false }
            return queuedOutOfOrder
        }
        guard let sort else { return }
        // Whichever event got here first, the others are no longer needed for this request.
        event_del_noblock(flushEvent)
        event_del_noblock(rearmTimer)
        event_del_noblock(deadlineTimer)

        // The batch belongs to this pass now (flushing is set): sorted outside the lock.
        if sort { deliveringSlots.sort { $0.precedes($1) } }
        // One lock for the whole batch: take each slot's count and handler. A signal
        // from now on finds the count at 0 and queues the slot for the next pass (guarantee 3).
        // `calls` is filled backwards and emptied with `popLast()`, which moves each call out of
        // the array: no retain and release of its handler and source for a copy.
        // The batch is walked through its buffer: `deliveringSlots` holds every slot for the
        // pass, so reading one costs no retain and release (two per slot with `reversed()`).
        lock.withLock {
            deliveringSlots.withUnsafeBufferPointer { batch in
                var index = batch.count
                while index > 0 {
                    index -= 1
                    let slot = Unmanaged.passUnretained(batch[index])
                    slot._withUnsafeGuaranteedRef { slot in
                        let state = slot.state.bitwiseAnd(Slot.cancelledBit, ordering: .acquiringAndReleasing)
                            .oldValue
                        guard state & Slot.cancelledBit == 0, state > 0 else { return }
                        if let target = slot.target {
                            slot.delivering = state
                            calls.append(Call(slot: .passUnretained(slot), handler: nil, target: target))
                        } else if let handler = slot.handler {
                            slot.delivering = state
                            calls.append(Call(slot: .passUnretained(slot), handler: handler, target: nil))
                        }
                    }
                }
            }
        }
        var delivered = false
        while let call = calls.popLast() {
            // A handler shut the loop down: the slots are cancelled, the rest is not called.
            // Cancelled or dropped by an earlier handler of this pass (or just now from another
            // thread: a delivery that already started may finish, as documented).
            if let target = call.target {
                // No source to load: a dropped source cancels itself (its deinit), so the
                // cancelled bit says all this needs.
                if !call.slot._withUnsafeGuaranteedRef({ $0.isCancelled }) {
                    delivered = true
                    target.loopFlushSignalled()
                }
            } else if let handler = call.handler {
                let source = call.slot._withUnsafeGuaranteedRef { slot -> LoopEventSource? in
                    slot.isCancelled ? nil : slot.source
                }
                if let source {
                    delivered = true
                    handler(source)
                }
            }
            call.slot._withUnsafeGuaranteedRef { $0.delivering = 0 }
        }
        // Handlers went with each call; slots are released here, outside the lock,
        // and both arrays keep their capacity.
        deliveringSlots.removeAll(keepingCapacity: true)

        lock.withLock {
            flushing = false
            flushThread.store(0, ordering: .relaxed)
            if delivered { passCount += 1 }
            if pending, !closed {
                // Requested during this flush: next iteration, without blocking (guarantee 3).
                var zero = timeval(tv_sec: 0, tv_usec: 0)
                event_add(rearmTimer, &zero)
                armDeadlineLocked()
            }
        }
    }
}

/// What a source made with `LoopEventSource(loop:order:target:)` calls in the passes that service
/// its signals, instead of a handler closure: a direct call, with no closure context to retain
/// and no weak load of the source (ViewModelKit's per-observer update coordinators; row "4
/// coalescing, per updateView()").
package protocol LoopFlushTarget: AnyObject, Sendable {
    /// Called on the loop's thread in the flush pass that services the source's signals, as a
    /// handler would be (`mergedSignalCount` of the source answers the same inside).
    func loopFlushSignalled()
}
