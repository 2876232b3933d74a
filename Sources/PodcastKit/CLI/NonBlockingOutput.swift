#if canImport(Glibc)
import Glibc
#endif
import LoopScheduler

/// stdout (a pipe, socket or terminal) written without ever blocking the event loop: the
/// descriptor is switched to `O_NONBLOCK`, text goes into a queue, and what `write(2)` does not
/// take at once is written when the loop reports the descriptor writable. So a reader that
/// stops reading stalls only the output, never signals or polling.
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

    init(fd: Int32, loop: EventLoop, bound: Int) {
        self.fd = fd
        self.loop = loop
        self.bound = bound
        originalFlags = fcntl(fd, F_GETFL)
        if originalFlags >= 0 { _ = fcntl(fd, F_SETFL, originalFlags | O_NONBLOCK) }
    }

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

    /// Stops watching and restores the descriptor's flags (the file description is shared with
    /// the parent shell). Whatever is still queued is dropped.
    func close() {
        registration?.cancel()
        registration = nil
        if originalFlags >= 0 { _ = fcntl(fd, F_SETFL, originalFlags) }
    }

    /// Writes what is still queued, blocking (for the end of `run --once`, whose output must
    /// all be written), then stops watching and restores the descriptor's flags.
    func finishBlocking() {
        registration?.cancel()
        registration = nil
        if originalFlags >= 0 { _ = fcntl(fd, F_SETFL, originalFlags & ~O_NONBLOCK) }
        drain()
        close()
    }

    private func drain() {
        guard failure == nil else { return }
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
