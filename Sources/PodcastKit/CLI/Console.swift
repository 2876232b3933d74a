#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Where a command writes: its stdout and stderr, and what stdout is. The real one writes to
/// file descriptors 1 and 2; tests pass closures that collect the text.
public struct Console: Sendable {
    /// Writes text to stdout (no newline added).
    public var out: @Sendable (String) -> Void
    /// Writes text to stderr (no newline added).
    public var err: @Sendable (String) -> Void
    /// Whether stdout is a terminal (then `run` draws the live table instead of JSON lines).
    public var isTerminal: Bool
    /// The terminal's width in columns (80 when unknown).
    public var width: Int

    /// A console made of two writers.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool = false, width: Int = 80) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
        self.width = width
    }

    /// The process's stdout and stderr, unbuffered (each call is one or more `write(2)`s, so a
    /// JSON line is never split by buffering). Terminal detection by `isatty(1)`, width by
    /// `TIOCGWINSZ`, else `$COLUMNS`, else 80.
    public static var standard: Console {
        var ws = winsize()
        var width = 80
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 {
            width = Int(ws.ws_col)
        } else if let c = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), c > 0 {
            width = c
        }
        return Console(out: { writeAll(1, $0) }, err: { writeAll(2, $0) }, isTerminal: isatty(1) == 1, width: width)
    }
}

// Writes every byte, retrying on EINTR and short writes; gives up silently on other errors
// (a closed pipe must not crash the daemon: SIGPIPE is ignored by the daemon).
private func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            return
        }
        bytes = bytes.dropFirst(n)
    }
}
