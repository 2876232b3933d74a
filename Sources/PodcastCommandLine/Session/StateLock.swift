import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The exclusive lock a daemon (`run`, `demo`) holds on its state directory: `flock(2)` on the
/// directory itself, which cannot be unlinked from under us while it holds the database (a lock
/// on `podcast-watch.lock` alone was lost when someone deleted that file, and a second `run`
/// started on the same state), and on `podcast-watch.lock` in it, which older versions lock. The
/// kernel drops both when the process ends however it ends, so a killed daemon leaves no stale
/// lock. Read-only commands (`list`, `export`) do not take it.
/// The descriptor is close-on-exec, so hooks started by the daemon do not keep it locked.
///
/// Threading: any thread; release it (drop the value) on any thread.
public final class StateLock {
    /// The lock file's name inside the state directory.
    public static let fileName = "podcast-watch.lock"

    /// What `acquire` found.
    public enum Outcome {
        /// The lock is held until the value is released.
        case acquired(StateLock)
        /// Another process holds it.
        case busy
        /// The lock file could not be opened or locked: the `errno`.
        case failed(Int32)
    }

    private let fd: Int32
    private let directoryFD: Int32

    private init(fd: Int32, directoryFD: Int32) {
        self.fd = fd
        self.directoryFD = directoryFD
    }

    deinit {  // closing the only descriptors releases the flocks
        close(fd)
        close(directoryFD)
    }

    /// Takes the lock on `directory` (which must exist) without waiting.
    public static func acquire(directory: String) -> Outcome {
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { return .failed(errno) }
        if flock(directoryFD, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(directoryFD)
            return code == EWOULDBLOCK ? .busy : .failed(code)
        }
        let fd = open(directory + "/" + fileName, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            close(directoryFD)
            return .failed(code)
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(fd)
            close(directoryFD)
            return code == EWOULDBLOCK ? .busy : .failed(code)
        }
        return .acquired(StateLock(fd: fd, directoryFD: directoryFD))
    }
}
