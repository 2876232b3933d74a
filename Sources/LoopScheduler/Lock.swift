#if canImport(Glibc)
import Glibc
#endif

/// A plain non-recursive pthread mutex for state that holds non-`Sendable` values (closures,
/// subscribers, objects), which `Synchronization.Mutex` cannot take without `sending` (and whose
/// futex locking ThreadSanitizer does not see on Linux). Shared by every module of the package;
/// not public API.
///
/// Rule of use, everywhere in the project: take the lock, copy what you need, release it, then
/// call out. Never call user code or release objects while holding it.
package final class Lock: @unchecked Sendable {
    @usableFromInline
    package let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// A new, unlocked mutex.
    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Takes the mutex, waiting if another thread holds it.
    @inlinable @inline(__always)
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex; the calling thread must hold it.
    @inlinable @inline(__always)
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the mutex held.
    @inlinable @inline(__always)
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
