import LoopScheduler

#if canImport(Glibc)
import Glibc
#endif

/// stdout (a pipe, socket or terminal) written without ever blocking the event loop: text goes
/// into a queue written through a non-blocking descriptor, and what `write(2)` does not take at
/// once is written when the loop reports the descriptor writable. So a reader that stops reading
/// stalls only the output, never signals or polling.
///
/// `O_NONBLOCK` is a flag of the open file description, which a terminal's stdout shares with
/// the shell: set there, a `run` killed by SIGKILL (no chance to restore it) left the shell's
/// terminal non-blocking, and the next program got EAGAIN. So a terminal or pipe is reopened
/// through `/proc/self/fd/N` — a description of our own, the same terminal or pipe — and only
/// that one is made non-blocking. A socket cannot be reopened: only then is the shared
/// description switched, and restored on `close()`.
///
/// `afterWritten` runs an action once every byte queued so far has reached the descriptor (the
/// daemon confirms announcements only then). Above `bound` queued bytes `isFull` holds and the
/// caller stops queueing until `onDrained`.
///
/// Threading: the loop's thread only.
final class NonBlockingOutput {
    /// Thrown by the session's writer while the queue is full: not an error, the view retries.
    struct Busy: Error {}

    private let fd: Int32
    /// Whether `fd` is our own reopened description (closed by `close()`), not the caller's.
    private let ownsDescriptor: Bool
    private let loop: EventLoop
    private let bound: Int
    private let originalFlags: Int32
    private var buffer: [UInt8] = []
    private var offset = 0
    private var queuedTotal = 0
    private var writtenTotal = 0
    private var waiting: [(end: Int, action: () -> Void)] = []
    private var registration: EventRegistration?
    /// The error that ended output (`EPIPE`, `EBADF`…); nothing more is written after it.
    private(set) var failure: OutputError?
    /// Called once, on the first failed `write(2)`.
    var onError: ((OutputError) -> Void)?
    /// Called each time the queue becomes empty.
    var onDrained: (() -> Void)?

    /// Whether `fd` can be watched by the loop (`epoll` refuses regular files and `/dev/null`).
    static func supports(fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK || isatty(fd) == 1
    }

    /// Output to `shared` (stdout): reopened as a description of our own when it is a terminal
    /// or a pipe (see above), else (a socket) `shared` itself switched to non-blocking.
    init(fd shared: Int32, loop: EventLoop, bound: Int) {
        self.loop = loop
        self.bound = bound
        if let own = NonBlockingOutput.reopen(shared) {
            fd = own
            ownsDescriptor = true
            originalFlags = -1  // nothing shared to restore
        } else {
            fd = shared
            ownsDescriptor = false
            originalFlags = fcntl(shared, F_GETFL)
            if originalFlags >= 0 { _ = fcntl(shared, F_SETFL, originalFlags | O_NONBLOCK) }
        }
    }

    /// A new open file description of what `fd` refers to, non-blocking and close-on-exec, or
    /// `nil` when it cannot be reopened (a socket; a pipe whose reader is gone: ENXIO).
    static func reopen(_ fd: Int32) -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFIFO || isatty(fd) == 1 else { return nil }
        let own = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard own >= 0 else { return nil }
        // The same terminal or pipe, not a path that was replaced meanwhile.
        var reopened = stat()
        guard fstat(own, &reopened) == 0, reopened.st_dev == info.st_dev, reopened.st_ino == info.st_ino else {
            Glibc.close(own)
            return nil
        }
        return own
    }

    /// Whether output goes through a description of our own (tests).
    var usesOwnDescription: Bool { ownsDescriptor }

    /// Bytes queued and not yet written.
    var pendingBytes: Int { queuedTotal - writtenTotal }
    /// Whether the queue holds `bound` bytes or more.
    var isFull: Bool { pendingBytes >= bound }

    /// Queues `text` and writes what the descriptor takes now. Throws the failure once output failed.
    func enqueue(_ text: String) throws(OutputError) {
        if let failure { throw failure }
        buffer.append(contentsOf: text.utf8)
        queuedTotal += text.utf8.count
        drain()
        if let failure { throw failure }
    }

    /// Runs `action` once everything queued so far is written (at once if nothing is pending;
    /// never if output fails first).
    func afterWritten(_ action: @escaping () -> Void) {
        if pendingBytes == 0 { action() } else { waiting.append((queuedTotal, action)) }
    }

    /// Stops watching and closes our own description, or restores the shared one's flags.
    /// Whatever is still queued is dropped. Idempotent.
    func close() {
        registration?.cancel()
        registration = nil
        if ownsDescriptor {
            if !closed { Glibc.close(fd) }
        } else if originalFlags >= 0 {
            _ = fcntl(fd, F_SETFL, originalFlags)
        }
        closed = true
    }
    private var closed = false

    /// Writes what is still queued, blocking (for the end of `run --once`, whose output must
    /// all be written), then stops watching and restores the descriptor's flags.
    func finishBlocking() {
        registration?.cancel()
        registration = nil
        if ownsDescriptor {
            let flags = fcntl(fd, F_GETFL)
            if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        } else if originalFlags >= 0 {
            _ = fcntl(fd, F_SETFL, originalFlags & ~O_NONBLOCK)
        }
        drain()
        close()
    }

    private func drain() {
        guard failure == nil, !closed else { return }
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK {
                    arm()
                    return
                }
                fail(code)
                return
            }
            if n == 0 {
                fail(EIO)
                return
            }
            offset += n
            writtenTotal += n
            confirmWritten()
        }
        buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        offset = 0
        registration?.cancel()
        registration = nil
        onDrained?()
    }

    private func arm() {
        if offset >= 1 << 16 {  // keep the unwritten tail only
            buffer.removeFirst(offset)
            offset = 0
        }
        guard registration == nil else { return }
        registration = loop.watch(fd: fd, events: .write) { [unowned self] _ in self.drain() }
    }

    private func confirmWritten() {
        let done = waiting.prefix { $0.end <= writtenTotal }
        guard !done.isEmpty else { return }
        waiting.removeFirst(done.count)
        for entry in done { entry.action() }
    }

    private func fail(_ code: Int32) {
        failure = OutputError(code: code)
        waiting.removeAll()
        registration?.cancel()
        registration = nil
        onError?(OutputError(code: code))
    }
}
