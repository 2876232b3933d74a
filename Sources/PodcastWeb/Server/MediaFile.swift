import Foundation
import PodcastEngine
import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

/// Serving one stored file over HTTP: where it may be opened from, and the answer to a `GET` or
/// `HEAD` with its validators and an optional single byte range, as RFC 9110 specifies (§8.8
/// validators, §13.1 preconditions, §14 ranges). The body is the open file itself
/// (`HTTPFileBody`), never its bytes in memory.
///
/// Threading: `open` blocks on the file system (run it off the loop); the rest is pure.
public enum MediaFile {
    /// A file opened for serving.
    public struct Opened: @unchecked Sendable {
        /// The open descriptor (read-only, close-on-exec), owned by whoever takes it on.
        public var fd: Int32
        /// Its size in bytes when opened.
        public var size: Int64
        /// Its modification time, seconds since 1970.
        public var modified: Int64
        /// Its strong entity tag: inode, size and modification time in nanoseconds, in hex.
        public var etag: String
    }

    /// Why a file is not served (each answered 404: nothing about the disk is told).
    public enum Refusal: Error, Equatable {
        /// A `.part` file, a link, not a regular file, or gone.
        case notAFile
        /// Outside every download folder once links are resolved.
        case outsideFolders
    }

    /// Opens `path` for serving when it is a regular file (not a link, no other hard link to it,
    /// not a `.part` file) that resolves, links in its folders included, inside one of `folders`.
    /// `O_NOFOLLOW` and `O_NONBLOCK` (a FIFO swapped in cannot block), then `fstat` on the open
    /// descriptor, so a file replaced between the checks is judged by what was opened. Blocks on
    /// the file system: call it off the loop.
    public static func open(path: String, folders: [String]) -> Result<Opened, Refusal> {
        guard !path.hasSuffix(".part") else { return .failure(.notAFile) }
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .failure(.notAFile) }
        guard let resolved = realPath(path), !resolved.hasSuffix(".part") else { return .failure(.notAFile) }
        let inside = folders.contains { folder in
            guard let root = realPath(folder) else { return false }
            return resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
        guard inside else { return .failure(.outsideFolders) }
        let fd = Glibc.open(resolved, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.notAFile) }
        // One name only: a hard link in a download folder may be any file of the same file
        // system (the folder's writer made it), which no check on the path can see.
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1 else {
            close(fd)
            return .failure(.notAFile)
        }
        let nanos = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        let etag =
            "\"" + String(UInt64(info.st_ino), radix: 16) + "-" + String(Int64(info.st_size), radix: 16) + "-"
            + String(nanos, radix: 16) + "\""
        return .success(
            Opened(fd: fd, size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec), etag: etag))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The answer to `request` (GET or HEAD) for `file` of type `contentType`: `304` when
    /// `If-None-Match` names its tag, or, without `If-None-Match`, when `If-Modified-Since` is
    /// not before its modification time; `206` with `Content-Range` for one satisfiable range
    /// (unless `If-Range` names another version); `416` with `Content-Range: bytes */SIZE`
    /// for an unsatisfiable one; else `200` with the whole file. Several ranges, another unit
    /// or a malformed header are ignored (the whole file, as RFC 9110 §14.2 allows). Every
    /// answer carries `Accept-Ranges`, `ETag`, `Last-Modified`, `Cache-Control` and a sandboxing
    /// `Content-Security-Policy` (`mediaSecurityPolicy`), and a type that is not audio or video
    /// `Content-Disposition: attachment`. Takes ownership of `file.fd`.
    public static func response(_ file: Opened, contentType: String, request: HTTPRequest) -> HTTPResponse {
        let body = HTTPFileBody(fd: file.fd, offset: 0, length: file.size)
        let lastModified = httpDate(file.modified)
        var headers: [(String, String)] = [
            ("Accept-Ranges", "bytes"), ("ETag", file.etag), ("Last-Modified", lastModified),
            ("Cache-Control", "private, max-age=0, must-revalidate"),
            // A downloaded file is what a feed said it is: never a page or a script of this
            // origin (the dashboard's API and its token live here).
            ("Content-Security-Policy", mediaSecurityPolicy),
        ]
        if !isPlayable(contentType) { headers.append(("Content-Disposition", "attachment")) }
        if let tags = request.header("if-none-match") {
            if matches(tags, file.etag) { return HTTPResponse(status: 304, headers: headers) }
        } else if let since = request.header("if-modified-since").flatMap(DateParser.parseSeconds),
            file.modified <= since
        {
            // Only without If-None-Match, which takes precedence (RFC 9110 §13.1.3).
            return HTTPResponse(status: 304, headers: headers)
        }
        var range = request.header("range").map { byteRange($0, size: file.size) } ?? .whole
        if case .whole = range {
        } else if let condition = request.header("if-range")?.trimmingCharacters(in: .whitespaces),
            condition != file.etag && condition != lastModified
        {
            range = .whole  // another version than the client holds: all of this one
        }
        switch range {
        case .whole:
            headers.append(("Content-Type", contentType))
            return HTTPResponse(status: 200, headers: headers, file: body)
        case .unsatisfiable:
            var response = HTTPResponse.jsonError(
                416, "the range asked for is not within the file's \(file.size) bytes")
            response.headers += headers + [("Content-Range", "bytes */\(file.size)")]
            return response
        case .part(let first, let last):
            headers.append(("Content-Type", contentType))
            headers.append(("Content-Range", "bytes \(first)-\(last)/\(file.size)"))
            let part = HTTPFileBody(fd: body.take() ?? -1, offset: first, length: last - first + 1)
            return HTTPResponse(status: 206, headers: headers, file: part)
        }
    }

    /// What a `Range` header asks of a file of `size` bytes.
    public enum ByteRange: Equatable, Sendable {
        /// The whole file (no usable range: several, another unit, malformed).
        case whole
        /// Bytes `first...last`.
        case part(first: Int64, last: Int64)
        /// Nothing of the file (416).
        case unsatisfiable
    }

    /// Parses `header` (`bytes=0-99`, `bytes=100-`, `bytes=-500`) against `size` (RFC 9110
    /// §14.1.2): a last position past the end is the end, a suffix longer than the file is the
    /// whole file; a first position at or past the end, or a zero suffix, is unsatisfiable.
    public static func byteRange(_ header: String, size: Int64) -> ByteRange {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let from = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let to = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        // Digits only; more than an Int64 holds is a position past any file (a last position is
        // then the file's end, a first one unsatisfiable).
        func number(_ text: String) -> Int64? {
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int64(text) ?? .max
        }
        if from.isEmpty {
            guard let suffix = number(to) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(first: max(0, size - suffix), last: size - 1)
        }
        guard let first = number(from) else { return .whole }
        var last = size - 1
        if !to.isEmpty {
            guard let given = number(to), given >= first else { return .whole }
            last = min(given, size - 1)
        }
        guard first < size else { return .unsatisfiable }
        return .part(first: first, last: last)
    }

    // Whether an `If-None-Match` list names `etag` (weak comparison, RFC 9110 §13.1.2), or is `*`.
    private static func matches(_ list: String, _ etag: String) -> Bool {
        let bare = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        return list.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == bare
        }
    }

    /// `seconds` since 1970 as an HTTP date (IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`), as
    /// the file fetch writes its Last-Modified.
    public static func httpDate(_ seconds: Int64) -> String {
        FileFetch.httpDate(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The policy every media answer carries: a file opened directly is a sandboxed document of
    /// a unique origin that may load and run nothing (a feed could name an HTML or script
    /// enclosure; served as this origin's page it could read the API with the user's cookie).
    public static let mediaSecurityPolicy = "default-src 'none'; sandbox"

    /// The `Content-Type` for a downloaded file: the feed's MIME type when it is a plain audio
    /// or video `type/subtype` (token characters only: it goes into a header), else one known
    /// for the file's extension, else `application/octet-stream`. Never a type a browser would
    /// render or run as this origin's page or script (`text/html`, `application/javascript`,
    /// `image/svg+xml`, …): those are served as `application/octet-stream`.
    public static func contentType(declared: String?, path: String) -> String {
        if let declared = declared?.trimmingCharacters(in: .whitespaces).lowercased(), isMediaType(declared),
            isPlayable(declared)
        {
            return declared
        }
        let ext = (path as NSString).pathExtension.lowercased()
        return typesByExtension[ext] ?? "application/octet-stream"
    }

    /// Audio and video: what a podcast app or the page's player plays.
    static func isPlayable(_ type: String) -> Bool { type.hasPrefix("audio/") || type.hasPrefix("video/") }

    private static func isMediaType(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&-^_.+")
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.count <= 64 && $0.allSatisfy(allowed.contains) }
    }

    private static let typesByExtension: [String: String] = [
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "m4b": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac", "wav": "audio/wav", "mp4": "video/mp4",
        "m4v": "video/x-m4v", "mov": "video/quicktime", "webm": "video/webm", "mkv": "video/x-matroska",
    ]
}
