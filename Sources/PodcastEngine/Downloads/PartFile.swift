import Dispatch
import Foundation
import LoopScheduler

#if canImport(Glibc)
import Glibc
#endif

/// A download's `NAME.part` file, written **off the loop thread**: the loop only copies the
/// bytes libcurl hands it into a buffer; every system call on the file (`mkdir`, `open`,
/// `write`, `ftruncate`, `fsync`, `rename`) runs on a serial queue of this file's own, in the
/// order asked, and each result comes back to the loop through `deliver`. A slow or full disk
/// therefore never blocks the loop; it fills this file's buffer, and `mustWait` says when to
/// pause the transfer (more than `highWater` bytes not yet written), `onDrained` when to resume.
///
/// Errors (`ENOSPC`, `EACCES`, `EROFS`...) stop the writing: later writes are skipped, the file
/// keeps the bytes written before (so a later attempt resumes from there), and `onError` runs
/// once on the loop with a message naming the file and the cause.
///
/// Thread rules: every method and callback on the loop thread (`deliver`'s).
final class PartFile: @unchecked Sendable {
    /// The completed file's path; the bytes go to `partPath` until `complete`.
    let path: String
    /// `path + ".part"`.
    var partPath: String { path + ".part" }
    /// Bytes given to `append` and not yet written (buffered or queued).
    private(set) var unwrittenBytes = 0
    /// Called on the loop when `unwrittenBytes` fell to `lowWater` after `mustWait` said wait.
    var onDrained: (() -> Void)?
    /// Called once on the loop with the first write error.
    var onError: ((String) -> Void)?

    /// Bytes handed to the queue per write job.
    static let chunkBytes = 256 * 1024
    /// Unwritten bytes above which `append` asks for a pause.
    static let highWater = 2 << 20
    /// Unwritten bytes at or below which a paused transfer may resume.
    static let lowWater = 512 * 1024

    typealias Deliver = @Sendable (@escaping @Sendable () -> Void) -> Void
    private let deliver: Deliver
    private let queue: DispatchQueue
    private let io = IOState()
    private var buffer: [UInt8] = []
    private var wantsDrain = false
    private var failed = false
    private var closed = false

    /// A part file for the final `path`, its jobs delivered back with `deliver` (an
    /// `EventLoop.execute`). `keepFree`: bytes every write must leave free on the file system
    /// (`nil`: `DownloadSettings.headroom(fileSystemBytes:)` of it).
    init(path: String, keepFree: Int64? = nil, deliver: @escaping Deliver) {
        self.path = path
        self.deliver = deliver
        self.queue = DispatchQueue(label: "pw-download-file", target: .global(qos: .utility))
        io.keepFree = keepFree
        buffer.reserveCapacity(PartFile.chunkBytes)
    }

    /// A `PartFile` delivering to `loop`.
    convenience init(path: String, keepFree: Int64? = nil, loop: EventLoop) {
        self.init(path: path, keepFree: keepFree, deliver: { work in loop.execute(work) })
    }

    deinit {
        let io = self.io
        queue.async { io.close() }
    }

    /// What `open` found.
    enum Opened: Equatable {
        /// The part file is open for appending; it already holds this many bytes (0: new).
        case part(existingBytes: Int64)
        /// The final file already exists (a finished download whose state was not recorded, or
        /// someone else's file): nothing was opened.
        case finalExists(bytes: Int64)
        /// `partPath` is something we never write through: a symbolic link, a directory, a FIFO,
        /// a device. Nothing was opened; the download takes another name.
        case partIsNotAFile
    }

    /// Creates the parent folders (0755), then opens `partPath` (created 0644, never through a
    /// symbolic link, never blocking on a FIFO) and reports its size, or `.partIsNotAFile` when
    /// something that is not a regular file has that name; `completion` gets the outcome or an
    /// error message.
    func open(completion: @escaping (Result<Opened, PartFileFailure>) -> Void) {
        let path = self.path
        let io = self.io
        let box = LoopBox(completion)
        queue.async { [deliver] in
            let result = io.open(path: path)
            deliver { box.value(result) }
        }
    }

    /// Checks, in order with the writes, that `bytes` more fit on the file system with the
    /// headroom left free; if not, writing stops there as on a write error (`onError`, once).
    /// Called when a response announces its length, so a body that cannot fit is refused
    /// before it fills the disk.
    func expect(_ bytes: Int64) {
        flushBuffer()
        let io = self.io
        queue.async { [deliver, weak self] in
            guard let error = io.reserve(bytes) else { return }
            let owner = WeakBox(self)
            deliver { owner.value?.written(0, error: error) }
        }
    }

    /// Empties the file (a restart from zero); ordered before later `append`s.
    func truncate() {
        flushBuffer()
        let io = self.io
        queue.async { io.truncate() }
    }

    /// Whether more than `highWater` bytes wait to be written: then take no more bytes, pause
    /// the transfer, and resume it on `onDrained` (armed by this call).
    func mustWait() -> Bool {
        guard !failed, !closed, unwrittenBytes > PartFile.highWater else { return false }
        wantsDrain = true
        return true
    }

    /// Queues `bytes` for writing (copied). After an error or `close` it drops them (the caller
    /// learns of the error from `onError`).
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard !failed, !closed else { return }
        buffer.append(contentsOf: bytes)
        unwrittenBytes += bytes.count
        if buffer.count >= PartFile.chunkBytes { flushBuffer() }
    }

    /// Hands the buffered bytes to the queue.
    func flushBuffer() {
        guard !buffer.isEmpty else { return }
        let chunk = buffer
        buffer = []
        buffer.reserveCapacity(PartFile.chunkBytes)
        let io = self.io
        let count = chunk.count
        queue.async { [deliver, weak self] in
            let error = io.write(chunk)
            let owner = WeakBox(self)
            deliver { owner.value?.written(count, error: error) }
        }
    }

    private func written(_ count: Int, error: PartFileFailure?) {
        unwrittenBytes -= count
        if let error, !failed {
            failed = true
            onError?(error.message)
            return
        }
        if wantsDrain && unwrittenBytes <= PartFile.lowWater {
            wantsDrain = false
            onDrained?()
        }
    }

    /// Writes what is buffered, then: `fsync`, checks the size is `expectedBytes` (when given),
    /// closes, and renames the part to `path` without replacing an existing file
    /// (`renameat2(RENAME_NOREPLACE)`, else `link` + `unlink`). `completion` gets the final size
    /// or the failure (the part file stays).
    func complete(expectedBytes: Int64?, completion: @escaping (Result<Int64, PartFileFailure>) -> Void) {
        flushBuffer()
        closed = true
        let io = self.io
        let path = self.path
        let box = LoopBox(completion)
        queue.async { [deliver] in
            let result = io.complete(path: path, expected: expectedBytes)
            deliver { box.value(result) }
        }
    }

    /// What `close` does with the part file.
    enum Disposal {
        /// Keep it (a stopped attempt: the next one resumes from it).
        case keep
        /// Delete it if empty (a failed attempt that got no byte leaves nothing behind).
        case removeIfEmpty
        /// Delete it (a cancelled download: its feed was removed).
        case remove
    }

    /// Writes what is buffered and closes the file, then keeps or deletes it as `disposal` says;
    /// `completion` (optional) gets its size on the loop (before any deletion).
    func close(_ disposal: Disposal = .keep, completion: ((Int64) -> Void)? = nil) {
        flushBuffer()
        closed = true
        let io = self.io
        let box = LoopBox(completion)
        queue.async { [deliver] in
            let size = io.size()
            io.close()
            if disposal == .remove || (disposal == .removeIfEmpty && size == 0) { io.removePart() }
            deliver { box.value?(size) }
        }
    }

    /// Waits for every queued job (tests, and `run`'s exit so nothing is lost).
    func waitForWrites() {
        flushBuffer()
        queue.sync {}
    }
}

/// A file operation that failed, with a message for the user.
struct PartFileFailure: Error, Equatable, Sendable {
    /// "cannot write /dl/x.mp3.part: No space left on device (disk full)".
    var message: String
    /// The `errno` value, or 0 for a size mismatch.
    var code: Int32

    static func errno(_ what: String, _ path: String, _ code: Int32) -> PartFileFailure {
        var text = "cannot \(what) \(path): \(String(cString: strerror(code)))"
        if code == ENOSPC || code == EDQUOT { text += " (disk full)" }
        return PartFileFailure(message: text, code: code)
    }
}

// The file descriptor and the system calls, used only on the file's queue.
private final class IOState: @unchecked Sendable {
    private var fd: Int32 = -1
    private var partPath = ""
    private var error: PartFileFailure?
    /// Set once, before any job runs.
    var keepFree: Int64?

    // When `more` bytes would leave less than the headroom free on the part's file system, the
    // failure that says so (and the state stops writing); nil when they fit or nothing is known.
    func reserve(_ more: Int64) -> PartFileFailure? {
        if let error { return error }
        guard fd >= 0 else { return nil }
        var info = statvfs()
        guard fstatvfs(fd, &info) == 0 else { return nil }  // unknown: the writes will tell
        let block = Int64(info.f_frsize > 0 ? info.f_frsize : info.f_bsize)
        let free = Int64(clamping: info.f_bavail).multipliedReportingOverflow(by: block)
        let size = Int64(clamping: info.f_blocks).multipliedReportingOverflow(by: block)
        guard !free.overflow, !size.overflow else { return nil }
        let headroom = keepFree ?? DownloadSettings.headroom(fileSystemBytes: size.partialValue)
        guard free.partialValue - max(0, more) < headroom else { return nil }
        let failure = PartFileFailure(
            message:
                "not enough free space for \(partPath): \(IOState.megabytes(free.partialValue)) free, \(IOState.megabytes(more)) more to write, and downloads leave \(IOState.megabytes(headroom)) free",
            code: ENOSPC)
        error = failure
        return failure
    }

    static func megabytes(_ bytes: Int64) -> String {
        let mib = Double(bytes) / Double(1 << 20)
        return mib >= 10 || mib == mib.rounded() ? "\(Int64(mib.rounded())) MiB" : String(format: "%.1f MiB", mib)
    }

    func open(path: String) -> Result<PartFile.Opened, PartFileFailure> {
        var info = stat()
        if lstat(path, &info) == 0 { return .success(.finalExists(bytes: Int64(info.st_size))) }
        let parent = (path as NSString).deletingLastPathComponent
        if let failure = makeDirectories(parent) { return .failure(failure) }
        partPath = path + ".part"
        // O_NONBLOCK: a FIFO with no reader fails (ENXIO) instead of blocking this queue.
        let descriptor = Glibc.open(
            partPath, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_APPEND | O_NONBLOCK | O_NOCTTY, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            // A link (ELOOP), a folder (EISDIR), a FIFO without a reader (ENXIO) at the name:
            // not ours to write through, and no retry would change it.
            if code == ELOOP || code == EISDIR || code == ENXIO { return .success(.partIsNotAFile) }
            return .failure(.errno("open", partPath, code))
        }
        guard fstat(descriptor, &info) == 0 else {
            let failure = PartFileFailure.errno("open", partPath, errno)
            Glibc.close(descriptor)
            return .failure(failure)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(descriptor)  // a FIFO with a reader, a device
            return .success(.partIsNotAFile)
        }
        // Writes block as usual (a regular file ignores the flag, but say what we mean).
        _ = fcntl(descriptor, F_SETFL, O_WRONLY | O_APPEND)
        fd = descriptor
        error = nil
        // A disk already past the headroom: nothing is requested (the part keeps its bytes).
        if let failure = reserve(0) {
            error = nil
            close()
            return .failure(failure)
        }
        return .success(.part(existingBytes: Int64(info.st_size)))
    }

    private func makeDirectories(_ dir: String) -> PartFileFailure? {
        var info = stat()
        if stat(dir, &info) == 0 {
            return (info.st_mode & S_IFMT) == S_IFDIR
                ? nil : PartFileFailure(message: "\(dir) is not a directory", code: ENOTDIR)
        }
        let parent = (dir as NSString).deletingLastPathComponent
        if parent != dir, !parent.isEmpty, let failure = makeDirectories(parent) { return failure }
        if mkdir(dir, 0o755) != 0 && errno != EEXIST { return .errno("create the folder", dir, errno) }
        return nil
    }

    func truncate() {
        guard fd >= 0, error == nil else { return }
        if ftruncate(fd, 0) != 0 { error = .errno("truncate", partPath, errno) }
    }

    func write(_ bytes: [UInt8]) -> PartFileFailure? {
        if let error { return error }
        guard fd >= 0 else { return nil }
        if let failure = reserve(Int64(bytes.count)) { return failure }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                error = .errno("write", partPath, errno)
                return error
            }
            offset += n
        }
        return nil
    }

    // The part file's size: of the open descriptor, else of the path (0 when there is none).
    func size() -> Int64 {
        var info = stat()
        if fd >= 0 { return fstat(fd, &info) == 0 ? Int64(info.st_size) : 0 }
        return !partPath.isEmpty && stat(partPath, &info) == 0 ? Int64(info.st_size) : 0
    }

    func complete(path: String, expected: Int64?) -> Result<Int64, PartFileFailure> {
        if let error { return .failure(error) }
        guard fd >= 0 else { return .failure(PartFileFailure(message: "\(partPath) is not open", code: EBADF)) }
        if fsync(fd) != 0 {
            let failure = PartFileFailure.errno("sync", partPath, errno)
            close()
            return .failure(failure)
        }
        let bytes = size()
        close()
        if let expected, expected != bytes {
            return .failure(
                PartFileFailure(
                    message: "\(partPath) has \(bytes) bytes where the server announced \(expected)", code: 0))
        }
        if rename(noReplace: partPath, to: path) != 0 { return .failure(.errno("rename to", path, errno)) }
        return .success(bytes)
    }

    private func rename(noReplace from: String, to: String) -> Int32 {
        // link + unlink never overwrites a file that appeared meanwhile (EEXIST); a file system
        // without hard links (FAT, some FUSE) gets a checked rename instead.
        if link(from, to) == 0 {
            unlink(from)
            return 0
        }
        if errno == EEXIST { return -1 }
        var info = stat()
        if lstat(to, &info) == 0 {
            errno = EEXIST
            return -1
        }
        return Glibc.rename(from, to)
    }

    // Deletes the part file this state opened (none opened: nothing to delete).
    func removePart() {
        if !partPath.isEmpty { unlink(partPath) }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}

// Carries a loop-thread value through a queue job that never touches it.
private final class LoopBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

private final class WeakBox<Value: AnyObject>: @unchecked Sendable {
    weak var value: Value?
    init(_ value: Value?) { self.value = value }
}
