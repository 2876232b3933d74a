import CLibevent
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Every live registration of one loop, so that `shutdown()` can free their events before the
/// base. A slab of unretained references with an intrusive free list: O(1) insert and remove,
/// no allocation per entry, and the set never keeps a registration alive (its deinit cancels it).
///
/// An entry stays valid while it is in the slab: a registration leaves it (under the lock, in
/// `remove`, from `cancel()` or its deinit) before its memory goes, and `close()` touches entries
/// only under the lock.
final class RegistrationSet: @unchecked Sendable {
    private let lock = Lock()
    /// Slot words: a registration's address (even), or a free slot `(next + 1) << 1 | 1`, where
    /// `next` is the following free slot (-1 at the end of the list). Guarded by the lock.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<UInt>?
    @exclusivity(unchecked) private var capacity = 0
    /// Slots handed out so far (the high-water mark).
    @exclusivity(unchecked) private var used = 0
    /// First free slot below `used`, -1 when none.
    @exclusivity(unchecked) private var freeHead = -1
    @exclusivity(unchecked) private var closed = false
    /// Frees in progress on any thread; `close()` waits for them before the base may be freed.
    private let freeing = Atomic<Int>(0)

    deinit {
        slots?.deallocate()
    }

    func insert(_ entry: EventRegistration) {
        let address = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
        let refused = lock.withLock { () -> Bool in
            if closed { return true }
            let index: Int
            if freeHead >= 0 {
                index = freeHead
                freeHead = Int(slots.unsafelyUnwrapped[index] >> 1) - 1
            } else {
                if used == capacity { grow() }
                index = used
                used += 1
            }
            slots.unsafelyUnwrapped[index] = address
            entry.slot = index
            return false
        }
        if refused { _ = free(entry) }
    }

    private func grow() {
        let newCapacity = max(capacity * 2, 64)
        let newSlots = UnsafeMutablePointer<UInt>.allocate(capacity: newCapacity)
        if let slots {
            newSlots.moveInitialize(from: slots, count: used)
            slots.deallocate()
        }
        slots = newSlots
        capacity = newCapacity
    }

    func remove(_ entry: EventRegistration) {
        let address = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
        lock.withLock {
            let index = entry.slot
            guard index >= 0, index < used, slots.unsafelyUnwrapped[index] == address else { return }
            slots.unsafelyUnwrapped[index] = UInt(freeHead + 1) << 1 | 1
            freeHead = index
            entry.slot = -1
        }
    }

    /// Frees `entry`'s event and releases its handler if nobody did yet; returns whether this
    /// call did it.
    @discardableResult
    func free(_ entry: EventRegistration) -> Bool {
        freeing.add(1, ordering: .acquiringAndReleasing)
        defer { freeing.subtract(1, ordering: .acquiringAndReleasing) }
        guard entry.active.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        // event_free does event_del first, which drops it from the active queue as well.
        event_free(entry.event)
        entry.handler = nil
        entry.onCancel?()
        return true
    }

    /// Frees every registration's event and refuses new ones; returns once no free is running on
    /// another thread (after that no event of a registration exists). Idempotent.
    ///
    /// The events are freed under the lock (the entries may be deinitialising on another thread,
    /// waiting for the lock in `remove`); the handlers are released, and `onCancel` called, after
    /// it. Called on the loop's thread or while the loop does not run, so `event_free` waits for
    /// no callback here.
    func close() {
        let released = lock.withLock { () -> [(EventRegistration.Handler?, (() -> Void)?)] in
            if closed { return [] }
            closed = true
            var released: [(EventRegistration.Handler?, (() -> Void)?)] = []
            for index in 0..<used {
                let word = slots.unsafelyUnwrapped[index]
                guard word & 1 == 0, let pointer = UnsafeMutableRawPointer(bitPattern: word) else { continue }
                Unmanaged<EventRegistration>.fromOpaque(pointer)._withUnsafeGuaranteedRef { entry in
                    entry.slot = -1
                    guard entry.active.exchange(false, ordering: .acquiringAndReleasing) else { return }
                    event_free(entry.event)
                    released.append((entry.handler, entry.onCancel))
                    entry.handler = nil
                }
            }
            used = 0
            freeHead = -1
            return released
        }
        for (_, onCancel) in released { onCancel?() }
        // A `cancel()` on another thread that won its entry may still be inside event_free.
        while freeing.load(ordering: .acquiring) != 0 { sched_yield() }
    }
}
