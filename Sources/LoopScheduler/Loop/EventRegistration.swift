import CLibevent
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A timer, descriptor watch or signal watch on an `EventLoop`; cancelling it (or dropping the
/// last reference) frees its libevent event at once, with `event_free`. `EventLoop.shutdown()`
/// cancels every registration of the loop.
///
/// Thread rules: `cancel()` is meant for the loop's thread. There, no callback of this
/// registration runs after `cancel()` has returned, even one that was already active in the
/// current iteration. From another thread `cancel()` is safe too: libevent's `event_del` then
/// waits for a callback of this registration that is running right now to finish.
public final class EventRegistration: Cancellable, @unchecked Sendable {
    private let event: RegisteredEvent
    // Keeps the base alive while the event exists.
    private let loop: EventLoop

    init(loop: EventLoop, event: OpaquePointer, box: CallbackBox, onCancel: (() -> Void)? = nil) {
        self.loop = loop
        self.event = RegisteredEvent(event: event, box: box, onCancel: onCancel)
        loop.registrations.insert(self.event)
    }

    deinit {
        cancel()
    }

    /// `true` until `cancel()` (or deinit, or the loop's `shutdown()`). A one-shot timer that
    /// fired is still not cancelled.
    public var isActive: Bool {
        event.isActive
    }

    /// Frees the libevent event and releases the handler. Idempotent. See the type's thread rules.
    public func cancel() {
        if loop.registrations.free(event) { loop.registrations.remove(event) }
    }
}

/// The libevent side of one registration, shared by the registration and its loop's
/// `RegistrationSet` so that `shutdown()` can free it without reaching the registration object.
final class RegisteredEvent: @unchecked Sendable {
    /// `true` until freed; the exchange to `false` picks the one caller that frees the event (an
    /// atomic instead of a lock: fewer mutex operations per short-lived timer).
    let active = Atomic<Bool>(true)
    let event: OpaquePointer
    let box: CallbackBox
    let onCancel: (() -> Void)?
    /// Index in the set's slots; guarded by the set's lock.
    var slot = -1

    init(event: OpaquePointer, box: CallbackBox, onCancel: (() -> Void)?) {
        self.event = event
        self.box = box
        self.onCancel = onCancel
    }

    var isActive: Bool { active.load(ordering: .acquiring) }
}

/// Every live registration of one loop, so that `shutdown()` can free their events before the
/// base. O(1) insert and remove (an index per entry, a free list of holes).
final class RegistrationSet: @unchecked Sendable {
    private let lock = Lock()
    private var slots: [RegisteredEvent?] = []
    private var holes: [Int] = []
    private var closed = false
    /// Frees in progress on any thread; `close()` waits for them before the base may be freed.
    private let freeing = Atomic<Int>(0)

    func insert(_ entry: RegisteredEvent) {
        let refused = lock.withLock { () -> Bool in
            if closed { return true }
            if let hole = holes.popLast() {
                entry.slot = hole
                slots[hole] = entry
            } else {
                entry.slot = slots.count
                slots.append(entry)
            }
            return false
        }
        if refused { _ = free(entry) }
    }

    func remove(_ entry: RegisteredEvent) {
        lock.withLock {
            let slot = entry.slot
            guard slot >= 0, slot < slots.count, slots[slot] === entry else { return }
            slots[slot] = nil
            entry.slot = -1
            holes.append(slot)
        }
    }

    /// Frees `entry`'s event and releases its handler if nobody did yet; returns whether this
    /// call did it.
    @discardableResult
    func free(_ entry: RegisteredEvent) -> Bool {
        freeing.add(1, ordering: .acquiringAndReleasing)
        defer { freeing.subtract(1, ordering: .acquiringAndReleasing) }
        guard entry.active.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        // event_free does event_del first, which drops it from the active queue as well.
        event_free(entry.event)
        entry.box.body = nil
        entry.onCancel?()
        return true
    }

    /// Frees every registration's event and refuses new ones; returns once no free is running on
    /// another thread (after that no event of a registration exists). Idempotent.
    func close() {
        let taken = lock.withLock { () -> [RegisteredEvent?] in
            closed = true
            defer {
                slots = []
                holes = []
            }
            return slots
        }
        for case let entry? in taken { free(entry) }
        // A `cancel()` on another thread that won its entry may still be inside event_free.
        while freeing.load(ordering: .acquiring) != 0 { sched_yield() }
    }
}
