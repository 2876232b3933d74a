import Foundation
import LoopScheduler

#if canImport(Glibc)
import Glibc
#endif

/// Reads a local feed file as if it were fetched: status 200 with the bytes, or 304 when the
/// request's `If-Modified-Since` equals the file's modification time as an HTTP date (which is
/// reported as `Last-Modified`). Size limit: `maxResponseBytes`.
///
/// Only regular files are read: a directory, FIFO, socket or device (`/dev/stdin`, `/dev/zero`)
/// is refused. The file is opened with `O_NONBLOCK` and checked with `fstat` on that descriptor,
/// so a path swapped for a FIFO after the check cannot block the read. Blocking disk reads still
/// take time: the daemon calls this on a worker thread.
package enum FileFetch {
    /// Why `path` cannot be a feed file (it names what it is instead), or nil for a regular file.
    /// Follows symbolic links. Used by `add` and `import` before subscribing.
    package static func refusal(path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot read \(path): \(String(cString: strerror(errno)))" }
        return kindRefusal(path: path, mode: info.st_mode)
    }

    private static func kindRefusal(path: String, mode: mode_t) -> String? {
        let kind: String
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO"
        case S_IFSOCK: kind = "a socket"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        default: kind = "not a regular file"
        }
        return "\(path) is \(kind), not a regular file"
    }

    static func read(path: String, request: FetchRequest) -> FetchResult {
        func failure(_ message: String) -> FetchResult {
            .failure(FetchError(kind: .file, url: request.url, message: message))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return failure("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return failure("cannot read \(path): \(String(cString: strerror(errno)))") }
        if let refusal = kindRefusal(path: path, mode: info.st_mode) { return failure(refusal) }
        let cap = request.limits.maxResponseBytes
        if info.st_size > cap {
            return .failure(
                FetchError(
                    kind: .tooLarge(decoded: false), url: request.url,
                    message: "file of \(info.st_size) bytes is larger than \(cap) bytes"))
        }
        let modified = httpDate(Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)))
        let headers = ["last-modified": modified]
        if let since = request.lastModified, since == modified {
            return .success(
                FetchResponse(status: 304, headers: headers, requestedURL: request.url, effectiveURL: request.url))
        }
        // Read up to one byte past the cap, in case the file grew since fstat.
        return readToEnd(fd: fd, path: path, request: request, headers: headers)
    }

    /// `show`'s read of a pipe or device (`curl … | podcast-watch show /dev/stdin`): to end of
    /// file, capped at `maxResponseBytes`, and bounded in time as a fetch is: the first byte must
    /// come within `connectTimeout` and the end within `totalTimeout` (seconds). Opened
    /// `O_NONBLOCK`, so a FIFO with no writer cannot hold `open(2)` for ever; then `poll(2)` waits
    /// for the writer, and a FIFO or pipe that stays silent is an error naming the wait. Never
    /// used by the daemon.
    package static func readStream(path: String, request: FetchRequest) -> FetchResult {
        func failure(_ message: String) -> FetchResult {
            .failure(FetchError(kind: .file, url: request.url, message: message))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return failure("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let cap = request.limits.maxResponseBytes
        let start = MonotonicInstant.now()
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var polledReady = false  // poll said readable or hung up: a 0 from read is the end
        while data.count <= cap {
            let want = min(chunk.count, cap + 1 - data.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n > 0 {
                data.append(contentsOf: chunk[0..<n])
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno != EAGAIN { return failure("cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 && polledReady { break }
            // Nothing to read yet (EAGAIN), or a 0 from a FIFO no writer has opened, which reads
            // as end of file too: wait for data or the last writer's hang-up, in the time left.
            let limit = data.isEmpty ? request.limits.connectTimeout : request.limits.totalTimeout
            let left = limit - Double(start.distance(to: MonotonicInstant.now()).nanoseconds) / 1e9
            guard left > 0 else { return failure(Self.silence(path, waited: limit, gotData: !data.isEmpty)) }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min((left * 1000).rounded(.up), Double(Int32.max))))
            if ready < 0 && errno != EINTR {
                return failure("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if ready > 0 { polledReady = true }
        }
        if data.count > cap {
            return .failure(
                FetchError(
                    kind: .tooLarge(decoded: false), url: request.url, message: "file is larger than \(cap) bytes"))
        }
        return .success(
            FetchResponse(status: 200, headers: [:], body: data, requestedURL: request.url, effectiveURL: request.url))
    }

    // The error for a pipe or FIFO that stayed silent: before its first byte, or before its end.
    private static func silence(_ path: String, waited seconds: Double, gotData: Bool) -> String {
        let shown = seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
        return gotData
            ? "\(path): the stream did not end within \(shown) s"
            : "\(path): nothing to read within \(shown) s (a FIFO with no writer, or a pipe whose writer sends nothing)"
    }

    private static func readToEnd(fd: Int32, path: String, request: FetchRequest, headers: [String: String])
        -> FetchResult
    {
        let cap = request.limits.maxResponseBytes
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= cap {
            let want = min(chunk.count, cap + 1 - data.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(
                    FetchError(
                        kind: .file, url: request.url,
                        message: "cannot read \(path): \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        if data.count > cap {
            return .failure(
                FetchError(
                    kind: .tooLarge(decoded: false), url: request.url, message: "file is larger than \(cap) bytes"))
        }
        return .success(
            FetchResponse(
                status: 200, headers: headers, body: data, requestedURL: request.url, effectiveURL: request.url))
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    package static func httpDate(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
