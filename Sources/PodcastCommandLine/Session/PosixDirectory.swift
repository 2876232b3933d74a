#if canImport(Glibc)
import Glibc
#endif

/// Directory operations that report failure as the failing path and its `errno` text
/// ("/tmp/f: Not a directory"), where Foundation gives "NSCocoaErrorDomain error 512".
enum PosixDirectory {
    /// A failed operation: the path that failed and `strerror(errno)`.
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var code: Int32
        var description: String { "\(path): \(String(cString: strerror(code)))" }
    }

    /// `mkdir -p` with `mode` for the directories it creates; throws the first component that
    /// could not be created (or exists and is not a directory).
    static func create(_ path: String, mode: mode_t = 0o700) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, mode) == 0 { continue }
            let code = errno
            var info = stat()
            if stat(prefix, &info) == 0 {
                if (info.st_mode & S_IFMT) == S_IFDIR { continue }
                throw Failure(path: String(prefix.hasPrefix("./") ? prefix.dropFirst(2) : prefix[...]), code: ENOTDIR)
            }
            throw Failure(
                path: String(prefix.hasPrefix("./") ? prefix.dropFirst(2) : prefix[...]),
                code: code == EEXIST ? ENOTDIR : code)
        }
    }

    /// Why `path` cannot be listed: `nil` when `opendir` succeeds.
    static func unreadableReason(_ path: String) -> Failure? {
        guard let handle = opendir(path) else { return Failure(path: path, code: errno) }
        closedir(handle)
        return nil
    }
}
