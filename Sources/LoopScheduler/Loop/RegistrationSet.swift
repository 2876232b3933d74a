import CLibevent
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Every live registration of one loop, so that `shutdown()` can free their events before the
/// base. A slab of unretained references to the registrations' cores with an intrusive free
/// list: O(1) insert and remove, no allocation per entry.
///
/// An entry stays valid while it is in the slab: a core's event owns a reference to it until
/// the event is freed, and whoever takes a core out of service (`cancelRegistration`, `close()`)
/// first wins its `active` flag and removes the entry under the lock, before the event goes.
///
/// Thread rules: `insert` on the loop's thread (registration calls), `remove` from any thread,
/// `close()` on the loop's thread or while the loop does not run. No libevent call is made under
/// the lock: `close()` frees the events after it.
final class RegistrationSet: @unchecked Sendable {
    private let lock = Lock()
    /// Slot words: a core's address (even), or a free slot `(next + 1) << 1 | 1`, where
    /// `next` is the following free slot (-1 at the end of the list). Guarded by the lock.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<UInt>?
    @exclusivity(unchecked) private var capacity = 0
    /// Slots handed out so far (the high-water mark).
    @exclusivity(unchecked) private var used = 0
    /// First free slot below `used`, -1 when none.
    @exclusivity(unchecked) private var freeHead = -1
    @exclusivity(unchecked) private var closed = false
    /// Cancels in progress on any thread; `close()` waits for them before the base may be freed.
    private let freeing = Atomic<Int>(0)

    deinit {
        slots?.deallocate()
    }

    /// Tracks `core`; after `close()` frees its event at once instead (the registration is then
    /// inactive). Loop thread.
    func insert(_ core: RegistrationCore) {
        let address = UInt(bitPattern: Unmanaged.passUnretained(core).toOpaque())
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
            core.slot = index
            return false
        }
        if refused, core.active.exchange(false, ordering: .acquiringAndReleasing) { core.free() }
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

    /// Untracks `core` (a no-op when it is not tracked). Any thread.
    func remove(_ core: RegistrationCore) {
        let address = UInt(bitPattern: Unmanaged.passUnretained(core).toOpaque())
        lock.withLock {
            let index = core.slot
            guard index >= 0, index < used, slots.unsafelyUnwrapped[index] == address else { return }
            slots.unsafelyUnwrapped[index] = UInt(freeHead + 1) << 1 | 1
            freeHead = index
            core.slot = -1
        }
    }

    /// Brackets a cancel (`EventLoop.cancelRegistration`), before it tries to win the core.
    func beginFree() {
        freeing.add(1, ordering: .acquiringAndReleasing)
    }

    func endFree() {
        freeing.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// Frees every registration's event and refuses new ones; returns once no cancel is in
    /// progress on another thread (after that, every event of a registration is freed or handed
    /// to the job queue, which `shutdown()` closes next). Idempotent.
    ///
    /// The cores are taken under the lock and their events freed after it. Called on the loop's
    /// thread or while the loop does not run, so `event_free` waits for no callback. The wait for
    /// other threads' cancels ends: a cancel never waits for the loop (see
    /// `EventLoop.cancelRegistration`), even for the callback that is calling `shutdown()`.
    func close() {
        let taken = lock.withLock { () -> [RegistrationCore] in
            if closed { return [] }
            closed = true
            var taken: [RegistrationCore] = []
            for index in 0..<used {
                let word = slots.unsafelyUnwrapped[index]
                guard word & 1 == 0, let pointer = UnsafeMutableRawPointer(bitPattern: word) else { continue }
                // Alive: its event (not freed yet, the entry is still here) holds it.
                let core = Unmanaged<RegistrationCore>.fromOpaque(pointer).takeUnretainedValue()
                core.slot = -1
                if core.active.exchange(false, ordering: .acquiringAndReleasing) { taken.append(core) }
            }
            used = 0
            freeHead = -1
            return taken
        }
        for core in taken {
            core.free()
            core.onCancel?()
        }
        // A `cancel()` on another thread that won its core may still be removing its event.
        while freeing.load(ordering: .acquiring) != 0 { sched_yield() }
    }
}
