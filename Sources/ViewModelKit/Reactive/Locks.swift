#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The reactive core's two locks. Rule: take the lock, copy what you need, release, then call out.
// The single exception is `RecursiveLock`, which a subject's subscription holds while it calls its
// subscriber: that is how Combine serialises concurrent sends to one subscriber while letting a
// re-entrant send on the same thread go through depth-first.

/// A plain non-recursive mutex (pthread, default type). Never held while calling user code.
final class UnfairLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the mutex held; `body` must not call out to user code.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

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
