import PodcastEngine
import PodcastFeeds
import PodcastStore
import PodcastWeb

/// The hand-written argument parser of `podcast-watch` (no outside packages).
///
/// Grammar: `podcast-watch [GLOBAL...] COMMAND [ARG|OPTION|GLOBAL...]`. Options are long
/// (`--name VALUE` or `--name=VALUE`); `-h` is the only short one; `--` ends the options. The
/// global options `--state DIR`, `--help`/`-h` and `--version` are accepted anywhere. A `--help`
/// wins over everything else, then `--version`. Every mistake is a `UsageError`, never a trap.
public enum CommandLineParser {
    /// Parses `arguments` (without the program name, i.e. `CommandLine.arguments.dropFirst()`).
    /// Throws `UsageError` for an unknown command or option, a missing or malformed value, or a
    /// wrong number of operands.
    ///
    /// `runDefaults`: option tokens (from `RunConfig`) read before `run`'s own, so an option
    /// given on the command line wins over the file's.
    public static func parse<S: Sequence>(_ arguments: S, runDefaults: [String] = []) throws(UsageError) -> Invocation
    where S.Element == String {
        var state: String?
        var wantsHelp = false
        var wantsVersion = false
        var commandName: String?
        var rest: [String] = []  // the command's own tokens, globals removed
        var tokens = Array(arguments)[...]
        var optionsEnded = false

        while let token = tokens.popFirst() {
            if optionsEnded {
                if commandName == nil {
                    commandName = token
                } else {
                    rest.append("--")
                    rest.append(token)
                }
                continue
            }
            let (name, inline) = splitInline(token)
            switch name {
            case "--":
                optionsEnded = true
            case "-h", "--help":
                if inline != nil { throw UsageError("option '--help' takes no value", command: commandName) }
                wantsHelp = true
            case "--version":
                if inline != nil { throw UsageError("option '--version' takes no value", command: commandName) }
                wantsVersion = true
            case "--state":
                let value = try takeValue(name, inline, &tokens, command: commandName)
                if value.isEmpty { throw UsageError("option '--state' needs a directory", command: commandName) }
                state = value
            default:
                if commandName == nil && !token.hasPrefix("-") {
                    commandName = token
                } else if commandName == nil {
                    throw UsageError("unknown option '\(name)'")
                } else {
                    rest.append(token)
                }
            }
        }

        if let commandName, CommandLineParser.commands.contains(commandName) == false, commandName != "help" {
            throw UsageError("unknown command '\(commandName)'")
        }
        if wantsHelp {
            return Invocation(stateDirectory: state, command: .help(topic: commandName == "help" ? nil : commandName))
        }
        if wantsVersion { return Invocation(stateDirectory: state, command: .version) }
        guard let commandName else { throw UsageError("no command given") }
        let command = try parseCommand(commandName, commandName == "run" ? runDefaults + rest : rest)
        return Invocation(stateDirectory: state, command: command)
    }

    /// The command names, in the order the usage lists them (`CommandTable`'s).
    public static let commands = CommandTable.commands.map(\.name)

    private static func parseCommand(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        switch name {
        case "help": return try parseHelp(name, tokens)
        case "add": return try parseAdd(name, tokens)
        case "remove": return try parseRemove(name, tokens)
        case "enable", "disable": return try parseEnableDisable(name, tokens)
        case "set":
            return try parseSet(tokens)
        case "list": return try parseList(name, tokens)
        case "import": return try parseImport(name, tokens)
        case "export": return try parseExport(name, tokens)
        case "run": return try parseRun(name, tokens)
        case "show": return try parseShow(name, tokens)
        case "downloads": return try parseDownloads(name, tokens)
        case "download", "cancel-download", "delete-download", "feed-url":
            return try parseDownloadControl(name, tokens)
        case "demo": return try parseDemo(name, tokens)
        default:
            throw UsageError("unknown command '\(name)'")
        }
    }

    private static func parseHelp(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        guard args.operands.count <= 1 else {
            throw UsageError("'help' takes at most one command name", command: name)
        }
        if let topic = args.operands.first, !commands.contains(topic) {
            throw UsageError("unknown command '\(topic)'")
        }
        return .help(topic: args.operands.first)
    }

    private static func parseAdd(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        let url = try exactlyOne(args.operands, what: "URL", command: name)
        let interval = try args.values["--interval"].map { v throws(UsageError) in
            try parseInterval(v, option: "--interval", command: name)
        }
        // A title is shown on the terminal and written to OPML: no escape sequences or newlines.
        if let title = args.values["--title"], !TerminalText.isAcceptableTitle(title) {
            throw UsageError(
                "option '--title' must not contain control characters (newlines, tabs, escapes)", command: name)
        }
        var downloads = DownloadLedger.FeedSettings()
        if args.flags.contains("--download") && args.flags.contains("--no-download") {
            throw UsageError("options '--download' and '--no-download' exclude each other", command: name)
        }
        if args.flags.contains("--download") { downloads.download = true }
        if args.flags.contains("--no-download") { downloads.download = false }
        if let v = args.values["--keep"] { downloads.keep = try parseKeep(v, command: name) }
        // A move keeps the subscription as it is, and needs the fetch to read the guid.
        if args.flags.contains("--replace"),
            let other = ["--title", "--interval", "--keep"].first(where: { args.values[$0] != nil })
                ?? ["--download", "--no-download", "--no-check"].first(where: args.flags.contains)
        {
            throw UsageError(
                "options '--replace' and '\(other)' exclude each other: a moved subscription keeps its settings (change them with 'set')",
                command: name)
        }
        return .add(
            url: url, title: args.values["--title"], intervalSeconds: interval, downloads: downloads,
            check: !args.flags.contains("--no-check"), replace: args.flags.contains("--replace"))
    }

    private static func parseRemove(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        if let v = args.values["--id"] {
            // An id only with --id, so a file named "1" is never read as feed #1.
            try noOperands(args.operands, command: name)
            guard let id = wholeNumber(v).map(Int64.init), id >= 1 else {
                throw UsageError(
                    "option '--id' needs a feed number (see 'podcast-watch list'), not '\(v)'", command: name)
            }
            return .removeID(id: id)
        }
        return .remove(url: try exactlyOne(args.operands, what: "URL", command: name))
    }

    private static func parseEnableDisable(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        let enabled = name == "enable"
        if let v = args.values["--id"] {
            try noOperands(args.operands, command: name)
            guard let id = wholeNumber(v).map(Int64.init), id >= 1 else {
                throw UsageError(
                    "option '--id' needs a feed number (see 'podcast-watch list'), not '\(v)'", command: name)
            }
            return .setEnabled(key: .id(id), enabled: enabled)
        }
        return .setEnabled(key: .url(try exactlyOne(args.operands, what: "URL", command: name)), enabled: enabled)
    }

    private static func parseList(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        try noOperands(args.operands, command: name)
        return .list(json: args.flags.contains("--json"))
    }

    private static func parseImport(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        return .importOPML(path: try exactlyOne(args.operands, what: "FILE", command: name))
    }

    private static func parseExport(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        try noOperands(args.operands, command: name)
        return .export
    }

    private static func parseRun(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        try noOperands(args.operands, command: name)
        var options = RunOptions(once: args.flags.contains("--once"), json: args.flags.contains("--json"))
        options.force = args.flags.contains("--force")
        if options.force && !options.once {
            throw UsageError("option '--force' only applies with '--once'", command: name)
        }
        try parsePollingAndHookOptions(args.values, into: &options)
        try parseDownloadOptions(args.values, into: &options)
        try parseHTTPOptions(args.values, into: &options)
        if options.hook == nil,
            let given = ["--hook-retries", "--hook-timeout", "--hook-log", "--hook-on"].first(where: {
                args.values[$0] != nil
            })
        {
            throw UsageError("option '\(given)' only applies with '--hook'", command: name)
        }
        return .run(options)
    }

    private static func parseShow(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        let target = try exactlyOne(args.operands, what: "URL or FILE", command: name)
        return .show(target: target, json: args.flags.contains("--json"))
    }

    private static func parseDownloads(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        try noOperands(args.operands, command: name)
        return .downloads(json: args.flags.contains("--json"))
    }

    private static func parseDemo(_ name: String, _ tokens: [String]) throws(UsageError) -> Command {
        let args = try scan(tokens, command: name)
        try noOperands(args.operands, command: name)
        return .demo(samplesDirectory: args.values["--samples"], json: args.flags.contains("--json"))
    }

    // `run`'s interval, first-sync limit and hook options (see `RunOptions`).
    private static func parsePollingAndHookOptions(_ values: [String: String], into options: inout RunOptions)
        throws(UsageError)
    {
        let name = "run"
        if let v = values["--interval"] {
            options.intervalSeconds = try parseInterval(v, option: "--interval", command: name)
        }
        if let hook = values["--hook"] {
            guard !hook.allSatisfy(\.isWhitespace) else {
                throw UsageError("option '--hook' needs a command", command: name)
            }
            options.hook = hook
        }
        if let v = values["--first-sync-announce"] {
            guard let n = wholeNumber(v), n >= 0 else {
                throw UsageError(
                    "option '--first-sync-announce' needs a whole number >= 0, not '\(v)'", command: name)
            }
            options.firstSyncAnnounce = n
        }
        if let v = values["--hook-retries"] {
            guard let n = wholeNumber(v), (0...10).contains(n) else {
                throw UsageError(
                    "option '--hook-retries' needs a whole number from 0 to 10, not '\(v)'", command: name)
            }
            options.hookRetries = n
        }
        if let v = values["--hook-timeout"] {
            options.hookTimeoutSeconds = try parseInterval(v, option: "--hook-timeout", command: name)
        }
        if let v = values["--hook-log"] {
            guard !v.isEmpty else { throw UsageError("option '--hook-log' needs a file", command: name) }
            options.hookLog = v
        }
    }

    // `run`'s web options: the address, the token and the public origin.
    private static func parseHTTPOptions(_ values: [String: String], into options: inout RunOptions) throws(UsageError)
    {
        let name = "run"
        if let v = values["--http"] {
            do throws(OptionValueError) {
                options.http = try HTTPAddress.parse(v)
            } catch {
                throw UsageError(error, command: name)
            }
        }
        if let v = values["--http-token"] {
            guard v.count >= 16, v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) })
            else {
                throw UsageError(
                    "option '--http-token' needs at least 16 letters, digits or -._~", command: name)
            }
            guard options.http != nil else {
                throw UsageError("option '--http-token' only applies with '--http'", command: name)
            }
            options.httpToken = v
        }
        if let v = values["--http-public-origin"] {
            do throws(OptionValueError) {
                options.httpPublicOrigin = try HTTPPublicOrigin.parse(v)
            } catch {
                throw UsageError(error, command: name)
            }
            guard options.http != nil else {
                throw UsageError("option '--http-public-origin' only applies with '--http'", command: name)
            }
        }
    }

    // `set URL | --id N` and what to change (see `FeedSettingsChange`).
    private static func parseSet(_ tokens: [String]) throws(UsageError) -> Command {
        let name = "set"
        let args = try scan(tokens, command: name)
        let key: FeedSelector
        if let v = args.values["--id"] {
            try noOperands(args.operands, command: name)
            guard let id = wholeNumber(v).map(Int64.init), id >= 1 else {
                throw UsageError(
                    "option '--id' needs a feed number (see 'podcast-watch list'), not '\(v)'", command: name)
            }
            key = .id(id)
        } else {
            key = .url(try exactlyOne(args.operands, what: "URL", command: name))
        }
        var change = FeedSettingsChange()
        let download = ["--download", "--no-download", "--download-default"].filter(args.flags.contains)
        if download.count > 1 {
            throw UsageError(
                "options \(download.map { "'\($0)'" }.joined(separator: " and ")) exclude each other", command: name)
        }
        switch download.first {
        case "--download": change.download = .some(true)
        case "--no-download": change.download = .some(false)
        case "--download-default": change.download = .some(nil)
        default: break
        }
        if let v = args.values["--keep"] {
            change.keep = v == "default" ? .some(nil) : .some(try parseKeep(v, command: name))
        }
        if let v = args.values["--interval"] {
            change.intervalSeconds =
                v == "default" ? .some(nil) : .some(try parseInterval(v, option: "--interval", command: name))
        }
        guard !change.isEmpty else {
            throw UsageError(
                "'set' needs something to change: --download, --no-download, --download-default, --keep or --interval",
                command: name)
        }
        return .set(key: key, changes: change)
    }

    // `run`'s download options (see `RunOptions`).
    private static func parseDownloadOptions(_ values: [String: String], into options: inout RunOptions)
        throws(UsageError)
    {
        let name = "run"
        if let v = values["--download"] {
            guard !v.isEmpty else { throw UsageError("option '--download' needs a directory", command: name) }
            options.downloadDirectory = v
        }
        if let v = values["--download-name"] {
            do throws(OptionValueError) {
                _ = try DownloadNaming(template: v)
            } catch {
                throw UsageError(error, command: "run")
            }
            options.downloadName = v
        }
        if let v = values["--download-jobs"] {
            guard let n = wholeNumber(v), (1...64).contains(n) else {
                throw UsageError(
                    "option '--download-jobs' needs a whole number from 1 to 64, not '\(v)'", command: name)
            }
            options.downloadJobs = n
        }
        if let v = values["--download-per-host"] {
            guard let n = wholeNumber(v), (1...16).contains(n) else {
                throw UsageError(
                    "option '--download-per-host' needs a whole number from 1 to 16, not '\(v)'", command: name)
            }
            options.downloadPerHost = n
        }
        if let v = values["--download-rate"] { options.downloadRate = try parseRate(v, command: name) }
        if let v = values["--download-max-size"] {
            let size = try? parseRate(v, command: name)
            guard let size, size >= 1 << 20 else {
                throw UsageError(
                    "option '--download-max-size' needs a size of at least 1M such as 500M or 4G, not '\(v)'",
                    command: name)
            }
            options.downloadMaxSize = size
        }
        if let v = values["--keep"] { options.keep = try parseKeep(v, command: name) }
        if let v = values["--hook-on"] {
            var events: Set<RunOptions.HookEvent> = []
            for word in v.split(separator: ",", omittingEmptySubsequences: false) {
                guard let event = RunOptions.HookEvent(rawValue: word.trimmingCharacters(in: .whitespaces)) else {
                    throw UsageError(
                        "option '--hook-on' takes new_episode, downloaded or both (comma separated), not '\(v)'",
                        command: name)
                }
                events.insert(event)
            }
            options.hookOn = events
        }
    }

    /// Reads a rate in bytes per second: a whole number with an optional `k`, `M` or `G`
    /// (powers of 1024; `500k`, `2M`); 0 means no limit.
    public static func parseRate(_ text: String, command: String?) throws(UsageError) -> Int64 {
        var digits = Substring(text)
        var unit: Int64 = 1
        switch digits.last {
        case "k", "K": unit = 1 << 10
        case "m", "M": unit = 1 << 20
        case "g", "G": unit = 1 << 30
        default: break
        }
        if unit > 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int64(digits),
            n <= Int64.max / unit / 2
        else {
            throw UsageError(
                "option '--download-rate' needs bytes per second such as 500k or 2M (0: no limit), not '\(text)'",
                command: command)
        }
        return n * unit
    }

    /// `v` as a whole number written with ASCII digits only: no sign (`+5`, `-0`), no spaces,
    /// as the durations and byte rates are read. `nil` otherwise, or past `Int.max`.
    static func wholeNumber(_ v: String) -> Int? {
        guard !v.isEmpty, v.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(v)
    }

    private static func parseKeep(_ v: String, command: String) throws(UsageError) -> Int {
        guard let n = wholeNumber(v), n >= 1, n <= 100_000 else {
            throw UsageError(
                "option '--keep' needs a whole number of files from 1 to 100000, not '\(v)'", command: command)
        }
        return n
    }

    /// Reads an interval: whole seconds (`90`), or a number with a unit `s`, `m`, `h` or `d`
    /// (`15m`, `2h`). Must be at least 1 second and at most 30 days.
    public static func parseInterval(_ text: String, option: String, command: String?) throws(UsageError) -> Int {
        var digits = Substring(text)
        var unit = 1
        if let last = digits.last, !last.isNumber {
            switch last {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: digits = ""
            }
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits),
            n >= 1, n <= PollPolicy.maximumIntervalSeconds / unit
        else {
            throw UsageError(
                "option '\(option)' needs a duration such as 900, 15m or 2h (1 s to 30 d), not '\(text)'",
                command: command)
        }
        return n * unit
    }

    struct Scanned {
        var operands: [String] = []
        var values: [String: String] = [:]
        var flags: Set<String> = []
    }

    // `scan` with the command's options from `CommandTable`, the one list the man pages and
    // completions are generated from.
    static func scan(_ tokens: [String], command: String) throws(UsageError) -> Scanned {
        let entry = CommandTable.command(command)
        return try scan(tokens, command: command, valued: entry?.valued ?? [], flags: entry?.flags ?? [])
    }

    // Splits the command's tokens into operands, valued options (given once; for `run` the last
    // one wins) and flags.
    private static func scan(
        _ tokens: [String], command: String, valued: Set<String>, flags: Set<String>
    ) throws(UsageError) -> Scanned {
        var out = Scanned()
        var queue = tokens[...]
        while let token = queue.popFirst() {
            if token == "--" {
                if let operand = queue.popFirst() { out.operands.append(operand) }
                continue
            }
            guard token.hasPrefix("-"), token != "-" else {
                out.operands.append(token)
                continue
            }
            let (name, inline) = splitInline(token)
            if valued.contains(name) {
                let value = try takeValue(name, inline, &queue, command: command)
                // `remove`, `enable` and `disable` take one feed, as they take one URL: a second
                // `--id` used to replace the first silently. Only `run` keeps the last of an
                // option, so the command line overrides the config file's tokens put before it.
                if out.values[name] != nil && command != "run" {
                    throw UsageError(
                        name == "--id"
                            ? "option '--id' is given more than once: '\(command)' takes one feed (run it once per feed)"
                            : "option '\(name)' is given more than once", command: command)
                }
                out.values[name] = value
            } else if flags.contains(name) {
                if inline != nil { throw UsageError("option '\(name)' takes no value", command: command) }
                out.flags.insert(name)
            } else {
                throw UsageError("unknown option '\(name)' for '\(command)'", command: command)
            }
        }
        return out
    }

    private static func splitInline(_ token: String) -> (String, String?) {
        guard token.hasPrefix("--"), let eq = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<eq]), String(token[token.index(after: eq)...]))
    }

    private static func takeValue(
        _ name: String, _ inline: String?, _ queue: inout ArraySlice<String>, command: String?
    ) throws(UsageError) -> String {
        if let inline { return inline }
        guard let next = queue.first, next != "--" else {
            throw UsageError("option '\(name)' needs a value", command: command)
        }
        queue.removeFirst()
        return next
    }

    static func exactlyOne(_ operands: [String], what: String, command: String) throws(UsageError) -> String {
        guard let first = operands.first else { throw UsageError("'\(command)' needs a \(what)", command: command) }
        guard operands.count == 1 else {
            throw UsageError(
                "'\(command)' takes one \(what), got \(operands.count): \(operands.joined(separator: " "))",
                command: command)
        }
        guard !first.allSatisfy(\.isWhitespace) else {
            throw UsageError("'\(command)' needs a \(what), got an empty one", command: command)
        }
        return first
    }

    static func noOperands(_ operands: [String], command: String) throws(UsageError) {
        if let first = operands.first {
            throw UsageError("unexpected argument '\(first)' for '\(command)'", command: command)
        }
    }
}
