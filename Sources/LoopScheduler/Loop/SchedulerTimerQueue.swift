import CLibevent

/// The deadline-ordered queue behind `LoopScheduler`'s timed actions.
///
/// libevent's timer heap does not keep equal deadlines in insertion order, so the loop keeps its
/// own binary heap ordered by (deadline, sequence) and arms one libevent timer for the earliest
/// entry.
///
/// Thread rules: `add` and `cancel` from any thread, `close` on the loop's thread or while the
/// loop does not run. The heap is locked, and the timer's callback (`fire`) takes that lock
/// between actions, so nothing that can wait for a running callback is called under it: the
/// timer is armed with `event_add` (thread-safe once threading is enabled, and it never waits for
/// a non-signal event's callback) and disarmed with `event_del_noblock`; `event_del` there
/// deadlocked a repeating action cancelled from a worker while `fire` waited for the lock.
/// `close` frees the event after releasing the lock.
final class SchedulerTimerQueue: @unchecked Sendable {
    final class Entry: @unchecked Sendable {
        // Renewed when a repeating entry is queued again (see `fire`).
        var sequence: UInt64
        var deadline: MonotonicInstant
        let interval: MonotonicInstant.Stride?
        var action: (() -> Void)?
        var cancelled = false
        // In the heap (set by add and by a repeating re-queue, cleared when popped). Lock held.
        var queued = false

        init(
            sequence: UInt64, deadline: MonotonicInstant, interval: MonotonicInstant.Stride?,
            action: @escaping () -> Void
        ) {
            self.sequence = sequence
            self.deadline = deadline
            self.interval = interval
            self.action = action
        }

    }

    private let lock = Lock()
    private var heap = TimerHeap()
    private var nextSequence: UInt64 = 0
    private var armedDeadline: MonotonicInstant?
    // Cancelled entries still in the heap (removed lazily; see `cancel`).
    private var cancelledInHeap = 0
    /// `close()` ran: the event is freed (checked under the lock, where it is armed).
    private var closed = false
    private let event: OpaquePointer
    private let box: CallbackBox
    // Not the loop: an action may drop the last reference to it (see `LoopRunState`).
    private let runState: LoopRunState
    // A host loop's wake-up (not the loop either): told when the earliest deadline moves.
    private let hostWake: HostWake

    init(loop: EventLoop) {
        runState = loop.state
        hostWake = loop.hostWake
        let box = CallbackBox { _, _ in }
        self.box = box
        event = makeLibeventEvent(base: loop.base, fd: -1, flags: 0, priority: loop.normalPriority, box: box)
        // Unowned (safe kind): the queue owns the box and frees the event (close/deinit) before it
        // goes; `fire` holds the queue for its call.
        box.body = { [unowned self] _, _ in self.fire() }
    }

    deinit {
        close()
    }

    /// Releases every queued action unrun, frees the libevent timer and refuses later `add`s.
    /// Idempotent.
    func close() {
        let entries = lock.withLock { () -> [Entry]? in
            if closed { return nil }
            closed = true
            var taken: [Entry] = []
            while heap.first != nil {
                let entry = heap.pop()
                entry.queued = false
                taken.append(entry)
            }
            cancelledInHeap = 0
            return taken
        }
        guard let entries else { return }
        // `closed` is set: no other thread arms the event any more. Loop thread (or the loop does
        // not run), so `event_free` waits for nothing.
        event_free(event)
        box.body = nil
        for entry in entries { cancel(entry) }  // actions released outside the lock
    }

    /// Queues `action` for `deadline` (and every `interval` after it, if given). Any thread.
    /// Returns `nil` after `close()`.
    @discardableResult
    func add(deadline: MonotonicInstant, interval: MonotonicInstant.Stride?, action: @escaping () -> Void) -> Entry? {
        lock.withLock {
            if closed { return nil }
            let entry = Entry(sequence: nextSequence, deadline: deadline, interval: interval, action: action)
            nextSequence += 1
            entry.queued = true
            heap.push(entry)
            armLocked()
            return entry
        }
    }

    /// Stops `entry`; its action is released outside the lock. Any thread; idempotent.
    ///
    /// The entry leaves the heap at once when it is the earliest one (with any cancelled entries
    /// behind it), and the libevent timer is deleted when nothing live is left, so a loop whose
    /// timers were all cancelled has no pending timer. Cancelled entries deeper in the heap are
    /// removed in one pass once they are more than half of it (amortised O(1) per cancel, and
    /// the heap never holds more dead entries than live ones, beyond a small floor).
    func cancel(_ entry: Entry) {
        let action = lock.withLock { () -> (() -> Void)? in
            defer { entry.action = nil }
            guard !entry.cancelled else { return entry.action }
            entry.cancelled = true
            if entry.queued {
                cancelledInHeap += 1
                dropCancelledLocked()
            }
            return entry.action
        }
        _ = action
    }

    /// Live and cancelled entries in the heap (for tests).
    var heapCounts: (live: Int, cancelled: Int) {
        lock.withLock { (heap.count - cancelledInHeap, cancelledInHeap) }
    }

    /// Whether the libevent timer is pending (for tests).
    var isArmed: Bool {
        lock.withLock { !closed && event_pending(event, Int16(EV_TIMEOUT), nil) != 0 }
    }

    // Pops cancelled entries off the top, compacts when they are most of the heap, and deletes
    // the libevent timer when the heap is empty (without waiting: `fire` may be running and
    // waiting for our lock).
    private func dropCancelledLocked() {
        while let first = heap.first, first.cancelled {
            _ = heap.pop()
            first.queued = false
            cancelledInHeap -= 1
        }
        if cancelledInHeap > 32, cancelledInHeap * 2 > heap.count {
            heap.removeAll { entry in
                guard entry.cancelled else { return false }
                entry.queued = false
                return true
            }
            cancelledInHeap = 0
        }
        if heap.first == nil, !closed, armedDeadline != nil {
            event_del_noblock(event)
            armedDeadline = nil
        }
    }

    /// The libevent timer fired: run every entry that is due and was queued before this call
    /// started (later ones wait for the next iteration, so a zero-interval loop cannot livelock).
    private func fire() {
        runState.noteLoopThread()
        let limit = lock.withLock { () -> UInt64 in
            armedDeadline = nil
            return nextSequence
        }
        while true {
            let now = MonotonicInstant.now()
            let due = lock.withLock { () -> (() -> Void)? in
                while let first = heap.first, first.cancelled {
                    _ = heap.pop()
                    first.queued = false
                    cancelledInHeap -= 1
                }
                guard let first = heap.first, first.deadline <= now, first.sequence < limit else { return nil }
                _ = heap.pop()
                first.queued = false
                if let interval = first.interval {
                    first.deadline = SchedulerTimerQueue.nextTick(after: first.deadline, every: interval, now: now)
                    // A new sequence, at or past `limit`: its next tick waits for the next pass
                    // even when it is due already (a zero or 1 ns interval), so a repeating
                    // action cannot hold the loop in this call; it also queues the tick behind
                    // actions scheduled for the same instant before it.
                    first.sequence = nextSequence
                    nextSequence += 1
                    first.queued = true
                    heap.push(first)
                    return first.action
                }
                defer { first.action = nil }
                return first.action
            }
            guard let due else { break }
            due()
        }
        lock.withLock { armLocked() }
    }

    /// The first tick of a repeating entry after `now`, on the original phase (ticks missed while
    /// the loop was busy are skipped). Saturating: an interval of "never" gives the end of time.
    static func nextTick(
        after deadline: MonotonicInstant, every interval: MonotonicInstant.Stride, now: MonotonicInstant
    ) -> MonotonicInstant {
        // In 128 bits the phase arithmetic is exact; only the result is clamped.
        let step = Int128(max(interval.nanoseconds, 1))
        let late = max(Int128(now.nanoseconds) - Int128(deadline.nanoseconds), 0)
        let next = Int128(deadline.nanoseconds) + (late / step + 1) * step
        return MonotonicInstant(nanoseconds: Int64(clamping: next))
    }

    /// Longest wait the libevent timer is armed for. A later deadline (up to "never", the end of
    /// time) is reached by re-arming: `fire` finds nothing due and arms again. Keeps every
    /// `timeval` small whatever the deadline.
    static let longestArm = MonotonicInstant.Stride.seconds(3_600)

    /// Arms the libevent timer for the earliest live entry if it is not armed early enough.
    private func armLocked() {
        guard !closed, let first = heap.first else { return }
        if let armed = armedDeadline, armed <= first.deadline { return }
        let now = MonotonicInstant.now()
        let wait = min(now.distance(to: first.deadline), SchedulerTimerQueue.longestArm)
        armedDeadline = now.advanced(by: wait)
        var tv = wait.timevalRoundedUp
        event_add(event, &tv)
        hostWake.notify()  // a new earliest deadline, maybe from another thread
    }
}

/// A binary min-heap of timer entries on (deadline, sequence). Each slot keeps a copy of its
/// entry's key, so sifting compares plain integers and never touches (retains) the entries, and
/// one mutating call is one exclusive access instead of one per element.
struct TimerHeap {
    private struct Slot {
        let deadline: MonotonicInstant
        let sequence: UInt64
        let entry: SchedulerTimerQueue.Entry

        @inline(__always)
        func precedes(_ other: Slot) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
        }
    }

    private var slots: [Slot] = []

    /// The earliest entry, if any.
    var first: SchedulerTimerQueue.Entry? {
        slots.first?.entry
    }

    /// The number of entries.
    var count: Int { slots.count }

    /// Removes every entry `shouldRemove` picks and restores the heap order (O(n)).
    mutating func removeAll(where shouldRemove: (SchedulerTimerQueue.Entry) -> Bool) {
        slots.removeAll { shouldRemove($0.entry) }
        var index = slots.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private mutating func siftDown(from start: Int) {
        let count = slots.count
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var best = parent
            if left < count, slots[left].precedes(slots[best]) { best = left }
            if right < count, slots[right].precedes(slots[best]) { best = right }
            if best == parent { break }
            slots.swapAt(parent, best)
            parent = best
        }
    }

    /// Adds `entry` with its current deadline and sequence as the key.
    mutating func push(_ entry: SchedulerTimerQueue.Entry) {
        slots.append(Slot(deadline: entry.deadline, sequence: entry.sequence, entry: entry))
        var child = slots.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard slots[child].precedes(slots[parent]) else { break }
            slots.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry. Precondition: not empty.
    mutating func pop() -> SchedulerTimerQueue.Entry {
        let top = slots[0].entry
        let last = slots.removeLast()
        let count = slots.count
        if count > 0 {
            slots[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var best = parent
                if left < count, slots[left].precedes(slots[best]) { best = left }
                if right < count, slots[right].precedes(slots[best]) { best = right }
                if best == parent { break }
                slots.swapAt(parent, best)
                parent = best
            }
        }
        return top
    }
}
