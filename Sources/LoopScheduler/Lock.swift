#if canImport(Glibc)
import Glibc
#endif

/// A plain non-recursive mutex for state that holds non-`Sendable` values (closures, objects),
/// which `Synchronization.Mutex` cannot take without `sending`.
///
/// Rule of use, everywhere in the project: take the lock, copy what you need, release it, then
/// call out. Never call user code or release objects while holding it.
final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
