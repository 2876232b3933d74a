#if canImport(Glibc)
import Glibc
#endif

/// A non-recursive pthread mutex for operator state.
///
/// `Synchronization.Mutex` cannot hold the non-`Sendable` values operators keep (subscribers,
/// closures) without `sending` gymnastics, hence this class. Rule of use: take the lock, copy
/// what you need, release it, then call out. Never call a subscriber or user closure, nor drop
/// the last reference to one, while holding it.
final class OperatorLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the mutex held.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
