import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a local feed file as if it were fetched: status 200 with the bytes, or 304 when the
/// request's `If-Modified-Since` equals the file's modification time as an HTTP date (which is
/// reported as `Last-Modified`). Size limit: `maxResponseBytes`.
enum FileFetch {
    static func read(path: String, request: FetchRequest) -> FetchResult {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return .failure(FetchError(kind: .file, url: request.url, message: "cannot read \(path): \(String(cString: strerror(errno)))"))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(FetchError(kind: .file, url: request.url, message: "\(path) is a directory"))
        }
        if info.st_size > request.limits.maxResponseBytes {
            return .failure(FetchError(kind: .tooLarge(decoded: false), url: request.url,
                message: "file of \(info.st_size) bytes is larger than \(request.limits.maxResponseBytes) bytes"))
        }
        let modified = httpDate(Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec)))
        let headers = ["last-modified": modified]
        if let since = request.lastModified, since == modified {
            return .success(FetchResponse(status: 304, headers: headers, requestedURL: request.url, effectiveURL: request.url))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(FetchError(kind: .file, url: request.url, message: "cannot open \(path): \(String(cString: strerror(errno)))"))
        }
        defer { try? handle.close() }
        do {
            // Read one byte past the cap, in case the file grew since stat.
            let data = try handle.read(upToCount: request.limits.maxResponseBytes + 1) ?? Data()
            if data.count > request.limits.maxResponseBytes {
                return .failure(FetchError(kind: .tooLarge(decoded: false), url: request.url,
                    message: "file is larger than \(request.limits.maxResponseBytes) bytes"))
            }
            return .success(FetchResponse(status: 200, headers: headers, body: data, requestedURL: request.url, effectiveURL: request.url))
        } catch {
            return .failure(FetchError(kind: .file, url: request.url, message: "cannot read \(path): \(error)"))
        }
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
