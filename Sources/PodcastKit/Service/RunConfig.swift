import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `run`'s config file, so a service unit stays one line: `$PODCAST_WATCH_CONFIG`, else
/// `$XDG_CONFIG_HOME/podcast-watch/config`, else `~/.config/podcast-watch/config`.
///
/// Format: one `key = value` per line; blank lines and lines starting with `#` are ignored; the
/// value is the rest of the line with surrounding blanks removed (so a hook may contain `=` and
/// `#`); keys are `run`'s long options without the dashes (`RunConfig.keys`). A simple format
/// parsed here, strictly, rather than JSON via Foundation: every value is one scalar, an
/// operator edits it by hand and wants comments, and our own parser can name the line of every
/// mistake. Values are checked exactly as the command-line option is. Any mistake — an unknown
/// or repeated key, a line without `=`, an empty or bad value, an unreadable file — is a
/// `UsageError` naming the file and line (exit status 2). Options given on the command line win.
public struct RunConfig: Equatable, Sendable {
    /// The keys a config file may set: `run`'s options that take a value, and `state`.
    public static let keys = [
        "state", "interval", "hook", "hook-timeout", "hook-retries", "hook-log", "first-sync-announce",
        "http", "http-token",
    ]

    /// The file read (or looked for).
    public var path: String
    /// `--state` from the file (the command line's wins), resolved against the file's folder
    /// when relative.
    public var stateDirectory: String?
    /// `run` option tokens (`--interval`, `15m`, …), to go before the command line's own so
    /// that those win (the parser keeps the last of an option).
    public var runTokens: [String] = []

    /// The path to read: `$PODCAST_WATCH_CONFIG`, else under `$XDG_CONFIG_HOME` (absolute only,
    /// as the XDG spec says), else `$HOME/.config`; `nil` without any of them.
    public static func path(environment: [String: String]) -> String? {
        if let explicit = environment["PODCAST_WATCH_CONFIG"], !explicit.isEmpty { return explicit }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/podcast-watch/config" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/podcast-watch/config" }
        return nil
    }

    /// Reads the file at `path`: `nil` when it does not exist (unless `required`: the path came
    /// from `$PODCAST_WATCH_CONFIG`). Throws `UsageError` as described above.
    public static func load(path: String, required: Bool = false) throws(UsageError) -> RunConfig? {
        var info = stat()
        if stat(path, &info) != 0 && errno == ENOENT && !required { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(
                "config file \(path): cannot read it: \(String(cString: strerror(errno == 0 ? EIO : errno)))",
                command: "run")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw UsageError("config file \(path): not UTF-8 text", command: "run")
        }
        return try parse(text, path: path)
    }

    /// Parses config `text` (read from `path`, for messages and relative paths).
    public static func parse(_ text: String, path: String) throws(UsageError) -> RunConfig {
        var config = RunConfig(path: path)
        var seen: [String: Int] = [:]
        let folder = (path as NSString).deletingLastPathComponent
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            func fail(_ message: String) -> UsageError { UsageError("\(path):\(number): \(message)", command: "run") }
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw fail("expected 'key = value', got '\(TerminalText.line(line))'")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard keys.contains(key) else {
                throw fail("unknown key '\(TerminalText.line(key))' (known: \(keys.joined(separator: ", ")))")
            }
            if let first = seen[key] { throw fail("'\(key)' is already set on line \(first)") }
            seen[key] = number
            guard !value.isEmpty else { throw fail("'\(key)' needs a value") }
            if key == "state" {
                config.stateDirectory = value.hasPrefix("/") ? value : folder + "/" + value
                continue
            }
            // Checked exactly as on the command line (with a stand-in hook for the hook options).
            // A relative log path is relative to the file, not to wherever run starts.
            let tokens = ["--\(key)", key == "hook-log" && !value.hasPrefix("/") ? folder + "/" + value : value]
            do {
                _ = try CommandLineParser.parse(["run", "--hook", "true", "--http", "0"] + tokens)
            } catch {
                throw fail("bad value for '\(key)': \(error.message)")
            }
            config.runTokens += tokens
        }
        return config
    }
}
