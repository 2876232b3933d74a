#if canImport(Glibc)
import Glibc
#endif

/// stderr in the form journald keeps well: when stderr is connected to the journal
/// (`JOURNAL_STREAM`, see systemd.exec(5)), every line starts with its syslog level as
/// `sd-daemon(3)` prefixes define them: `<3>` error, `<4>` warning, `<5>` notice, `<6>` info,
/// `<7>` debug. Elsewhere lines are left plain. Either way the text has already been
/// neutralised by `Console.err` (no escape sequences reach the journal or a terminal).
public enum JournalLines {
    /// Whether descriptor `fd` is the journal stream `JOURNAL_STREAM` names ("DEVICE:INODE" of
    /// the socket): a variable inherited by something whose stderr was redirected elsewhere
    /// does not count, as systemd.exec(5) advises.
    public static func isJournal(fd: Int32, environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    /// The syslog level of one of podcast-watch's stderr lines: warnings, skipped input and a
    /// hook about to be retried 4; the hint of an empty `run`, the wait for running hooks at
    /// shutdown and a config reload's summary 5; any other
    /// `podcast-watch: ...` line (an error) 3; a continuation line (a usage text) 6.
    public static func level(of line: Substring) -> Int {
        let prefix = "podcast-watch: "
        guard line.hasPrefix(prefix) else { return 6 }
        let message = line.dropFirst(prefix.count)
        if message.hasPrefix("warning:") || message.hasPrefix("skipped ") { return 4 }
        if message.hasPrefix("hook "), message.contains("; retrying in ") { return 4 }
        if message.hasPrefix("no subscriptions yet") || message.hasPrefix("stopping:")
            || message.hasPrefix("config reloaded")
        {
            return 5
        }
        return 3
    }

    /// `text` with every line prefixed by `<level>`; the trailing newline kept, empty lines
    /// dropped (one journal entry per line).
    public static func format(_ text: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            out += "<\(level(of: line))>" + line + "\n"
        }
        return out
    }
}
