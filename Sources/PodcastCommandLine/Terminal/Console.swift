import Foundation
import PodcastEngine
import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes: its stdout and stderr, and what stdout is. The real one writes to
/// file descriptors 1 and 2; tests pass closures that collect the text (or fail, to test how a
/// command reacts to a closed or full stdout).
public struct Console: Sendable {
    /// Writes text to stdout (no newline added), reporting failure: throws `OutputError` when
    /// not every byte could be written (closed stdout, full disk, reader gone: `EPIPE`).
    public var write: @Sendable (String) throws(OutputError) -> Void
    /// Makes what `write` wrote durable where that can fail later (stdout a regular file: a
    /// deferred write error such as `ENOSPC`/`EIO` on NFS surfaces in `fdatasync(2)`); throws
    /// `OutputError`. A no-op for consoles that cannot fail.
    public var flush: @Sendable () throws(OutputError) -> Void = {}
    /// Writes text to stderr (no newline added), neutralised by `TerminalText.block` (messages
    /// quote feed titles, server reason phrases and error texts). Failures are ignored: there is
    /// nowhere left to report them.
    public var err: @Sendable (String) -> Void {
        get { rawErr }
        set { rawErr = { text in newValue(TerminalText.block(text)) } }
    }
    private var rawErr: @Sendable (String) -> Void
    /// Whether stdout is a terminal (then `run` draws the live table instead of JSON lines).
    public var isTerminal: Bool
    /// The terminal's width in columns (80 when unknown).
    public var width: Int
    /// The file descriptor behind `write` (1 for `standard`), or nil for a console made of
    /// closures. `run` writes a pipe, socket or terminal descriptor without blocking its loop.
    public var descriptor: Int32? = nil

    /// Writes text to stdout ignoring failure (for help text and messages whose loss changes
    /// nothing; data output goes through `write`).
    public var out: @Sendable (String) -> Void {
        let write = self.write
        return { text in try? write(text) }
    }

    /// A console made of two writers that cannot fail.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool = false,
        width: Int = 80
    ) {
        self.write = { text throws(OutputError) in out(text) }
        self.rawErr = { text in err(TerminalText.block(text)) }
        self.isTerminal = isTerminal
        self.width = width
    }

    /// A console whose stdout writer reports failure.
    public init(
        write: @escaping @Sendable (String) throws(OutputError) -> Void, err: @escaping @Sendable (String) -> Void,
        isTerminal: Bool = false, width: Int = 80
    ) {
        self.write = write
        self.rawErr = { text in err(TerminalText.block(text)) }
        self.isTerminal = isTerminal
        self.width = width
    }

    /// The process's stdout and stderr, unbuffered (each call is one or more `write(2)`s, so a
    /// JSON line is never split by buffering). stderr lines get a journald level prefix when
    /// stderr is the journal (`JournalLines`). Terminal detection by `isatty(1)`, width by
    /// `TIOCGWINSZ`, else `$COLUMNS`, else 80. A failed `write(2)` on stdout throws.
    public static var standard: Console {
        let journal = JournalLines.isJournal(fd: 2, environment: ProcessInfo.processInfo.environment)
        var console = Console(
            write: { text throws(OutputError) in
                let code = writeAll(1, text)
                if code != 0 { throw OutputError(code: code) }
            },
            err: { text in _ = writeAll(2, journal ? JournalLines.format(text) : text) },
            isTerminal: isatty(1) == 1, width: terminalWidth())
        console.descriptor = 1
        var info = stat()
        if fstat(1, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
            console.flush = { () throws(OutputError) in
                if fdatasync(1) != 0 && errno != EINVAL && errno != EROFS { throw OutputError(code: errno) }
            }
        }
        return console
    }

    /// The terminal width of stdout: `TIOCGWINSZ`, else `$COLUMNS`, else 80 (never below 1).
    public static func terminalWidth() -> Int {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        if let c = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        return 80
    }

    /// The terminal height of stdout in rows: `TIOCGWINSZ`, else `$LINES`, else 24 (never below 1).
    public static func terminalHeight() -> Int {
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0 { return Int(ws.ws_row) }
        if let l = ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init), l > 0 { return l }
        return 24
    }

    /// Makes sure file descriptors 0, 1 and 2 are open: a closed one is reopened on `/dev/null`
    /// (fd 1 and 2 read-only, so writes to them still fail with `EBADF` and are reported), so
    /// that no file the process opens later (the database, a socket, the lock) becomes "stdout".
    public static func guardStandardDescriptors() {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0 && opened != fd {
                dup2(opened, fd)
                close(opened)
            }
        }
    }
}

/// A failed write to stdout: the `errno` of the failing `write(2)` (`EPIPE`, `ENOSPC`, `EBADF`…).
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value.
    public var code: Int32
    /// An error with `errno` value `code`.
    public init(code: Int32) { self.code = code }
    /// `strerror(code)`, e.g. "Broken pipe".
    public var description: String { String(cString: strerror(code)) }
}

// Writes every byte, retrying on EINTR and short writes; returns 0, or the errno of the failure
// (SIGPIPE is ignored by the executable, so a closed pipe is EPIPE here, not death).
private func writeAll(_ fd: Int32, _ text: String) -> Int32 {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                // `run` makes stdout non-blocking, and stderr may share its open file (a
                // terminal, `2>&1`): wait until it takes bytes again, as a blocking write would.
                var ready = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            }
            return errno
        }
        if n == 0 { return EIO }
        bytes = bytes.dropFirst(n)
    }
    return 0
}
