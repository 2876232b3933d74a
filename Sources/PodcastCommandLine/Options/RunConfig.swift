import Foundation
import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

/// podcast-watch's config file, so a service unit stays one line: `$PODCAST_WATCH_CONFIG`, else
/// `$XDG_CONFIG_HOME/podcast-watch/config`, else `~/.config/podcast-watch/config`. Read by every
/// command that uses the state directory (`add`, `remove`, `enable`, `disable`, `list`,
/// `import`, `export`, `run`), so `state` means the same to all of them; the other keys are
/// `run`'s and are checked by all of them (a broken file is reported at once, not at the next
/// restart) but used only by `run`.
///
/// Format: one `key = value` per line, LF or CRLF line endings; blank lines and lines starting
/// with `#` are ignored; the value is the rest of the line with surrounding blanks removed (so
/// a hook may contain `=` and `#`); keys are `run`'s long options without the dashes
/// (`RunConfig.keys`). A simple format parsed here, strictly, rather than JSON via Foundation:
/// every value is one scalar, an operator edits it by hand and wants comments, and our own
/// parser can name the line of every mistake. Values are checked exactly as the command-line
/// option is. Any mistake — an unknown or repeated key, a line without `=`, an empty or bad
/// value, an unset variable in a path, an unreadable file — is a `UsageError` naming the file and
/// line (exit status 2), with any control character in it shown as a visible symbol (`␍`).
/// Options given on the command line win.
///
/// Path values (`RunConfig.pathKeys`: `state`, `hook-log`, `download`) are expanded as a shell would for
/// the common forms: a leading `~` or `~/` is `$HOME`, and `$NAME` or `${NAME}` anywhere is
/// that environment variable (unset or empty: an error, never a path silently rooted at `/`).
/// A path still relative after that is relative to the config file's folder, never to
/// wherever the command was started. The `hook` value is left alone: its shell expands it.
public struct RunConfig: Equatable, Sendable {
    /// The keys a config file may set: `run`'s options that take a value, and `state`.
    public static let keys = [
        "state", "interval", "hook", "hook-timeout", "hook-retries", "hook-log", "first-sync-announce",
        "download", "download-name", "download-jobs", "download-per-host", "download-rate", "download-max-size", "keep",
        "hook-on",
        "http", "http-token", "http-public-origin",
    ]

    /// The keys whose value is a path, expanded and resolved as described above.
    public static let pathKeys: Set<String> = ["state", "hook-log", "download"]

    /// The file read (or looked for).
    public var path: String
    /// `--state` from the file (the command line's wins), expanded and absolute.
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
    /// from `$PODCAST_WATCH_CONFIG`). An empty file or `/dev/null` (under any name, a link to it
    /// included) is an empty config; anything else that is not a regular file (a directory, a
    /// FIFO, another device such as `/dev/zero`) or is larger than `maximumBytes` is refused,
    /// naming what it is. `environment` expands `~` and `$NAME` in path values.
    /// Throws `UsageError` as described above.
    ///
    /// A default path that cannot even be looked up (a folder on the way that this user may not
    /// search, as root's home for `setpriv`/`sudo -u` runs keeping `HOME`) is reported through
    /// `warn` and treated as absent, as git does with its own config: the command still works,
    /// and the operator learns why the file, if any, was not read.
    public static func load(
        path: String, required: Bool = false, environment: [String: String] = [:],
        warn: ((String) -> Void)? = nil
    ) throws(UsageError) -> RunConfig? {
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            if !required && (code == ENOENT || code == ENOTDIR) { return nil }
            if !required && code == EACCES {
                warn?(
                    "cannot look for the config file \(visible(path)): \(String(cString: strerror(code))); going on without it"
                )
                return nil
            }
            throw unreadable(path, strerror: code)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFCHR where isDevNull(info):
            // `/dev/null` (under any name): the documented way to say "no config file".
            return try parse("", path: path, environment: environment)
        default:
            // A directory, FIFO (whose open would wait for a writer), socket or device
            // (`/dev/zero` never ends): not a config file, whatever the path says.
            throw UsageError(
                "config file \(visible(path)): \(kind(info.st_mode)), not a regular file (use /dev/null for no config)",
                command: "run")
        }
        let data = try readRegularFile(path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw UsageError("config file \(path): not UTF-8 text", command: "run")
        }
        return try parse(text, path: path, environment: environment)
    }

    /// The most bytes a config file may hold: one `key = value` per line needs far less.
    static let maximumBytes = 1 << 20

    private static func unreadable(_ path: String, strerror code: Int32) -> UsageError {
        UsageError("config file \(visible(path)): cannot read it: \(String(cString: strerror(code)))", command: "run")
    }

    // What a path that is not a regular file is, for the message.
    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "it is a directory"
        case S_IFIFO: return "it is a FIFO"
        case S_IFSOCK: return "it is a socket"
        case S_IFCHR: return "it is a character device"
        case S_IFBLK: return "it is a block device"
        default: return "it is not a regular file"
        }
    }

    // `/dev/null` itself: the same device numbers (a link or another name for it counts).
    private static func isDevNull(_ info: stat) -> Bool {
        var null = stat()
        return stat("/dev/null", &null) == 0 && (null.st_mode & S_IFMT) == S_IFCHR && null.st_rdev == info.st_rdev
    }

    // Reads a regular file without blocking on a path swapped for a FIFO after the `stat`
    // (`O_NONBLOCK`, then `fstat` on the descriptor), up to `maximumBytes`; each error names
    // the call's own errno.
    private static func readRegularFile(_ path: String) throws(UsageError) -> Data {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw unreadable(path, strerror: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw unreadable(path, strerror: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw UsageError(
                "config file \(visible(path)): \(kind(info.st_mode)), not a regular file", command: "run")
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw unreadable(path, strerror: errno) }
            if n == 0 { return data }
            data.append(contentsOf: chunk[0..<n])
            if data.count > maximumBytes {
                throw UsageError(
                    "config file \(visible(path)): larger than \(maximumBytes) bytes; not a config file", command: "run"
                )
            }
        }
    }

    /// Parses config `text` (read from `path`, for messages and relative paths); `environment`
    /// expands `~` and `$NAME` in path values.
    public static func parse(_ text: String, path: String, environment: [String: String] = [:]) throws(UsageError)
        -> RunConfig
    {
        var config = RunConfig(path: path)
        var seen: [String: Int] = [:]
        let folder = (path as NSString).deletingLastPathComponent
        // "\r\n" is one Character in Swift: splitting on "\n" alone kept a CRLF file as one line.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            func fail(_ message: String) -> UsageError {
                UsageError(visible("\(path):\(number): \(message)"), command: "run")
            }
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                throw fail("expected 'key = value', got '\(line)'")
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard keys.contains(key) else {
                throw fail("unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
            }
            if let first = seen[key] { throw fail("'\(key)' is already set on line \(first)") }
            seen[key] = number
            guard !value.isEmpty else { throw fail("'\(key)' needs a value") }
            if pathKeys.contains(key) {
                do {
                    value = try expand(value, environment: environment)
                } catch {
                    throw fail("bad value for '\(key)': \(error.message)")
                }
                if !value.hasPrefix("/") { value = folder + "/" + value }
            }
            if key == "state" {
                config.stateDirectory = value
                continue
            }
            // Checked exactly as on the command line (with a stand-in hook for the hook options).
            let tokens = ["--\(key)", value]
            do {
                _ = try CommandLineParser.parse(["run", "--hook", "true", "--http", "0"] + tokens)
            } catch {
                throw fail("bad value for '\(key)': \(error.message)")
            }
            config.runTokens += tokens
        }
        return config
    }

    /// `value` with a leading `~` (alone or before `/`) replaced by `$HOME` and every `$NAME` or
    /// `${NAME}` (NAME: letters, digits, `_`) by that variable. Throws `UsageError` for an unset
    /// or empty variable, `~user`, or a `$` that starts no name.
    public static func expand(_ value: String, environment: [String: String]) throws(UsageError) -> String {
        func variable(_ name: String) throws(UsageError) -> String {
            guard let v = environment[name], !v.isEmpty else {
                throw UsageError("$\(name) is not set (in '\(value)')", command: "run")
            }
            return v
        }
        var rest = Substring(value)
        var out = ""
        if rest == "~" || rest.hasPrefix("~/") {
            out = try variable("HOME")
            rest = rest.dropFirst()
        } else if rest.hasPrefix("~") {
            throw UsageError("'~user' is not supported; write the path in full (in '\(value)')", command: "run")
        }
        let isNameCharacter = { (c: Character) in c == "_" || (c.isASCII && (c.isLetter || c.isNumber)) }
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            let name: Substring
            if rest.hasPrefix("{") {
                guard let close = rest.firstIndex(of: "}") else {
                    throw UsageError("'${' without a closing '}' (in '\(value)')", command: "run")
                }
                name = rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
            } else {
                name = rest.prefix(while: isNameCharacter)
                rest = rest.dropFirst(name.count)
            }
            guard !name.isEmpty, name.allSatisfy(isNameCharacter) else {
                throw UsageError("'$' must start a variable name such as $HOME (in '\(value)')", command: "run")
            }
            out += try variable(String(name))
        }
        return out + rest
    }

    /// `text` with every control character and bidi override shown as a visible symbol (a C0
    /// control or DEL as its Control Pictures sign, `␍` for CR; the others as U+FFFD), so a
    /// stray CR or escape in the file can neither hide nor rewrite the message on a terminal.
    static func visible(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard TerminalText.isUnsafe(scalar) else {
                out.append(scalar)
                continue
            }
            let v = scalar.value
            out.append(v < 0x20 ? Unicode.Scalar(0x2400 + v)! : v == 0x7F ? "\u{2421}" : "\u{FFFD}")
        }
        return String(out)
    }
}
