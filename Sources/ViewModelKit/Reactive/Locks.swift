import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The reactive core's own locks; the plain mutex is LoopScheduler's package-wide `Lock`.
// Rule: take the lock, copy what you need, release, then call out. The single exception is `RecursiveLock`, which a subject's subscription holds while it calls its
// subscriber: that is how Combine serialises concurrent sends to one subscriber while letting a
// re-entrant send on the same thread go through depth-first.

/// A recursive mutex: the owning thread may lock it again. Used to serialise calls into one
/// subscriber across threads while a re-entrant call on the owning thread proceeds.
final class RecursiveLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attr = pthread_mutexattr_t()
        pthread_mutexattr_init(&attr)
        pthread_mutexattr_settype(&attr, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attr)
        pthread_mutexattr_destroy(&attr)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
    /// True if the lock was taken (always true for the owning thread).
    @inline(__always) func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }
}

// MARK: - Inline locks

// Locks stored inline in the object they guard (no separate lock object, no heap mutex): one
// atomic word each, so a subscription costs one allocation (the saving shows in row "6
// subscription memory"; a `Lock` per subscription would add a 40-byte mutex allocation).
// Correctness argument: acquire on the winning compare-exchange, release on the store that frees
// it; the recursive one compares its owner with `pthread_self()`, which only the owner can
// match, so its depth is touched by the owner alone. They spin briefly and then yield, so
// they suit short critical sections and rarely contended ones. `Atomic` (not
// `Synchronization.Mutex`) keeps them visible to ThreadSanitizer. Their methods are `borrowing`,
// so a `let` in a class uses them without exclusivity checks.

/// Backs off while another thread holds an inline lock: spin, then yield, then sleep briefly.
@inline(never)
func inlineLockBackOff(_ attempt: inout Int) {
    attempt += 1
    if attempt < 64 { return }
    if attempt < 256 {
        sched_yield()
        return
    }
    var pause = timespec(tv_sec: 0, tv_nsec: 20_000)
    nanosleep(&pause, nil)
}

/// A non-recursive lock in one atomic word. Never held while calling user code.
///
/// `lock()`/`unlock()` are inlinable (for `Subscribers.Sink.receive(_:)`); the contended path is not.
@usableFromInline
struct InlineLock: ~Copyable, @unchecked Sendable {
    @usableFromInline let held = Atomic<Bool>(false)

    init() {}

    @inlinable @inline(__always)
    borrowing func lock() {
        if held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged { return }
        lockSlow()
    }

    @usableFromInline @inline(never)
    borrowing func lockSlow() {
        var attempt = 0
        while true {
            if !held.load(ordering: .relaxed),
                held.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            {
                return
            }
            inlineLockBackOff(&attempt)
        }
    }

    @inlinable @inline(__always)
    borrowing func unlock() {
        held.store(false, ordering: .releasing)
    }
}

/// A recursive lock in ten bytes (an atomic word and a 16-bit depth): the owning thread may take
/// it again. Serialises calls into one subscriber across threads while a re-entrant call on the
/// owning thread proceeds. The 16-bit depth leaves room for small fields after it in a class.
struct InlineRecursiveLock: ~Copyable, @unchecked Sendable {
    // The holder's `pthread_self()`, 0 when free.
    private let owner = Atomic<UInt>(0)
    // Touched only by the holder. Re-entrant depth beyond 65,535 would have exhausted the stack.
    private let depth = Atomic<UInt16>(0)

    init() {}

    @inline(__always)
    private static var currentThread: UInt { UInt(pthread_self()) }

    @inline(__always)
    borrowing func lock() {
        let me = Self.currentThread
        if owner.load(ordering: .relaxed) == me {
            depth.store(depth.load(ordering: .relaxed) + 1, ordering: .relaxed)
            return
        }
        if !owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged {
            lockSlow(me)
        }
        depth.store(1, ordering: .relaxed)
    }

    @inline(never)
    private borrowing func lockSlow(_ me: UInt) {
        var attempt = 0
        while true {
            if owner.load(ordering: .relaxed) == 0,
                owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged
            {
                return
            }
            inlineLockBackOff(&attempt)
        }
    }

    /// True if the lock was taken (always true for the owning thread).
    @inline(__always)
    borrowing func tryLock() -> Bool {
        let me = Self.currentThread
        if owner.load(ordering: .relaxed) == me {
            depth.store(depth.load(ordering: .relaxed) + 1, ordering: .relaxed)
            return true
        }
        guard owner.compareExchange(expected: 0, desired: me, ordering: .acquiring).exchanged else {
            return false
        }
        depth.store(1, ordering: .relaxed)
        return true
    }

    @inline(__always)
    borrowing func unlock() {
        let remaining = depth.load(ordering: .relaxed) - 1
        depth.store(remaining, ordering: .relaxed)
        if remaining == 0 { owner.store(0, ordering: .releasing) }
    }
}
