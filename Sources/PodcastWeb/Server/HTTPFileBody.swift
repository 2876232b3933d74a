import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A byte range of an open file sent as a response body. `HTTPServer` hands the descriptor to
/// libevent (`evbuffer_add_file`), which sends it with `sendfile(2)` as the socket drains, so
/// the loop never reads the file into memory, and closes it when done. A body never sent (a
/// `HEAD`, a server closed first) closes its descriptor when released. `sendfile(2)` to a
/// client that went away raises `SIGPIPE`: a process serving files ignores it (podcast-watch
/// does from its first statement), as any process writing to sockets must.
///
/// Threading: any thread; the descriptor is taken once (`take()`), under a lock.
public final class HTTPFileBody: @unchecked Sendable {
    /// The first byte sent.
    public let offset: Int64
    /// How many bytes are sent from `offset`.
    public let length: Int64
    private let lock = NSLock()
    private var fd: Int32

    /// A body of `length` bytes of `fd` from `offset`; the body owns `fd` from now on.
    public init(fd: Int32, offset: Int64, length: Int64) {
        self.fd = fd
        self.offset = offset
        self.length = length
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// The descriptor, which the caller now owns; `nil` once taken.
    public func take() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        guard fd >= 0 else { return nil }
        let taken = fd
        fd = -1
        return taken
    }
}
