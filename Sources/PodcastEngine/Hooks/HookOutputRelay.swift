import Foundation
import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

/// Carries a hook's stdout and stderr to ours line by line when no hook log takes them:
/// each line neutralised (`TerminalText.line`: a hook echoing `$EPISODE_TITLE` passes feed
/// text, and no escape sequence may reach a terminal or the journal) and, when stderr is the
/// journal (`JournalLines.isJournal`), prefixed with its syslog level (`<6>` for the hook's
/// stdout, `<4>` for its stderr, as sd-daemon(3) defines them).
///
/// Threading: `start` reads on a thread of its own until both pipes reach end of file (the
/// hook and whatever it left running closed them), so the loop never blocks on a hook's
/// output. A line longer than `maxLine` bytes is cut into pieces of that size.
public struct HookOutputRelay: Sendable {
    /// Prefix every line with its syslog level.
    public var journal: Bool
    /// Writes one finished line (with its newline) to our stderr.
    public var write: @Sendable (String) -> Void
    /// The longest line relayed whole, in bytes.
    public var maxLine = 16 * 1024

    /// A relay writing to `write`; `journal` as above.
    public init(journal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.journal = journal
        self.write = write
    }

    /// The relay `run` uses: stderr (fd 2), journal prefixes when fd 2 is the journal stream.
    public static var standard: HookOutputRelay {
        HookOutputRelay(journal: JournalLines.isJournal(fd: 2, environment: ProcessInfo.processInfo.environment)) {
            text in
            _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(2, $0.baseAddress!, $0.count - 1) }
        }
    }

    /// The text to write for one line the hook wrote (`isError`: on its stderr).
    public func format(_ line: [UInt8], isError: Bool) -> String {
        // A CRLF line ends at its CR; any other CR shows as a space.
        let body = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
        var text = TerminalText.line(String(decoding: body, as: UTF8.self))
        if journal { text = (isError ? "<4>" : "<6>") + text }
        return text + "\n"
    }

    // Relays still reading, so that `run` does not exit before a finished hook's last lines.
    private static let active = DispatchGroup()

    /// Waits until every relay started so far has written its hook's last line, or `timeout`
    /// seconds (a hook may leave a background process holding its pipes). Any thread.
    public static func drain(timeout: Double) {
        _ = active.wait(timeout: .now() + timeout)
    }

    /// Reads `stdoutFD` and `stderrFD` (both owned: closed at their end) on a new thread.
    public func start(stdoutFD: Int32, stderrFD: Int32) {
        let relay = self
        HookOutputRelay.active.enter()
        let thread = Thread {
            relay.pump([(stdoutFD, false), (stderrFD, true)])
            HookOutputRelay.active.leave()
        }
        thread.name = "hook output"
        thread.start()
    }

    // Until every descriptor reached its end: poll, read, write out each complete line.
    func pump(_ sources: [(fd: Int32, isError: Bool)]) {
        var open = sources
        var pending: [Int32: [UInt8]] = [:]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            var ended: [Int32] = []
            for (i, source) in open.enumerated() where fds[i].revents != 0 {
                let n = buffer.withUnsafeMutableBytes { read(source.fd, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    ended.append(source.fd)
                    continue
                }
                var bytes = pending[source.fd, default: []] + buffer[0..<n]
                while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? (bytes.count >= maxLine ? maxLine : nil)
                {
                    let cut = min(newline, maxLine)
                    write(format(Array(bytes[0..<cut]), isError: source.isError))
                    bytes.removeFirst(cut < bytes.count && bytes[cut] == UInt8(ascii: "\n") ? cut + 1 : cut)
                }
                pending[source.fd] = bytes
            }
            for fd in ended {
                let isError = open.first { $0.fd == fd }?.isError ?? false
                if let rest = pending[fd], !rest.isEmpty { write(format(rest, isError: isError)) }
                close(fd)
                open.removeAll { $0.fd == fd }
            }
        }
        for source in open { close(source.fd) }
    }
}
