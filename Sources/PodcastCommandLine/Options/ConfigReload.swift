import Foundation

/// What `run` needs to read its options again at SIGHUP (`systemctl reload`): the config file's
/// path as found at start, the command line (whose options still win over the file's), and the
/// surroundings paths are resolved in. `read()` gives the options a fresh start would get;
/// `changes(from:to:)` says which differ and whether they apply live.
///
/// Keys that apply live: `interval`, `first-sync-announce`, `hook` (a changed command; adding
/// or removing the hook altogether needs a restart), `hook-timeout`, `hook-retries`, `hook-on`,
/// `download`, `download-name`, `download-jobs`, `download-per-host`, `download-rate`, `download-max-size`, `keep`.
/// Keys that need a restart: `state` (the open database and its lock), `http`, `http-token`
/// and `http-public-origin` (the listening socket and its access rules), `hook-log` (the open file hooks write to), and `hook` or `download`
/// going from absent to present or back (the hook runner and the download queue are made at
/// start).
///
/// Threading: any; `read()` reads the file (a few hundred bytes, at a signal).
struct ConfigReload {
    /// The file to read again (it may not exist, or no longer exist: then no options from it).
    let path: String
    /// `$PODCAST_WATCH_CONFIG` named it: it must be readable.
    let required: Bool
    /// For `~`, `$NAME` and the state directory's default.
    let environment: [String: String]
    /// `run`'s command line as given (without the program name).
    let arguments: [String]
    /// Where relative command-line paths are resolved.
    let currentDirectory: String

    /// One key whose value differs after a reload.
    struct Change: Equatable {
        /// The config key (`interval`, `http`, …).
        var key: String
        /// Whether the running daemon applies it now; otherwise it waits for a restart.
        var live: Bool
    }

    /// The options and state directory a start would get now. Throws `UsageError` for a file
    /// that cannot be read or parsed (its message names the file and line).
    func read() throws(UsageError) -> (options: RunOptions, stateDirectory: String?) {
        let config =
            try RunConfig.load(path: path, required: required, environment: environment)
            ?? RunConfig(path: path)
        let invocation = try CommandLineParser.parse(arguments, runDefaults: config.runTokens)
        guard case .run(var options) = invocation.command else {
            throw UsageError("not a 'run' command line", command: "run")
        }
        options = ConfigReload.resolved(options, currentDirectory: currentDirectory)
        let state = StateLocation.resolve(
            invocation.stateDirectory ?? config.stateDirectory, environment: environment,
            currentDirectory: currentDirectory)
        return (options, state)
    }

    /// Whether a reloaded `state` directory names the running one: the same directory when both
    /// exist (`st_dev`/`st_ino`, so a symlink or `./` spelling is no change), else the same path
    /// once standardised (`.` and `..` folded, trailing slashes removed). Paths are absolute.
    static func sameStateDirectory(_ configured: String, _ running: String) -> Bool {
        var a = stat()
        var b = stat()
        if stat(configured, &a) == 0, stat(running, &b) == 0 {
            return a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        return normalisedPath(configured) == normalisedPath(running)
    }

    /// The reload's summary line (without the program prefix and newline): what was applied
    /// (`live`), what was taken but does nothing (`inert`: hook keys without a hook), what waits
    /// for a restart (`restart`, also warned about one by one); with no file at `path` (absent,
    /// or a device such as `/dev/null`) and nothing changed, that only the feed list was reloaded.
    static func summary(path: String, live: [String], inert: [String], restart: [String], noFile: Bool) -> String {
        func list(_ keys: [String]) -> String { keys.joined(separator: ", ") }
        let inertNote =
            inert.isEmpty ? nil : "\(list(inert)) \(inert.count == 1 ? "has" : "have") no effect without a hook"
        let restartNote = restart.isEmpty ? nil : "restart needed for \(list(restart))"
        if !live.isEmpty {
            return "config reloaded from \(path): applied \(list(live))" + (inertNote.map { "; " + $0 } ?? "")
        }
        let notes = [inertNote, restartNote].compactMap { $0 }
        if !notes.isEmpty {
            return "config reloaded from \(path): nothing applied (\(notes.joined(separator: "; ")))"
        }
        if noFile { return "config reloaded: no config file (\(path)); feed list reloaded" }
        return "config reloaded from \(path): nothing changed"
    }

    /// `path` standardised (`.`/`..` folded) without trailing slashes (`/` stays `/`).
    static func normalisedPath(_ path: String) -> String {
        var s = (path as NSString).standardizingPath
        while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
        return s
    }

    /// `options` with relative `hook-log` and `download` paths (from the command line) made
    /// absolute against `currentDirectory`, as `run` does at start.
    static func resolved(_ options: RunOptions, currentDirectory: String) -> RunOptions {
        var options = options
        if let log = options.hookLog, !log.hasPrefix("/") { options.hookLog = currentDirectory + "/" + log }
        if let dir = options.downloadDirectory, !dir.hasPrefix("/") {
            options.downloadDirectory = currentDirectory + "/" + dir
        }
        return options
    }

    /// The keys whose value differs between `old` and `new`, in `RunConfig.keys` order, each
    /// marked live or not (see the type's documentation). `state` is compared by the caller.
    static func changes(from old: RunOptions, to new: RunOptions) -> [Change] {
        var out: [Change] = []
        func note(_ key: String, _ differs: Bool, live: Bool = true) {
            if differs { out.append(Change(key: key, live: live)) }
        }
        note("interval", old.intervalSeconds != new.intervalSeconds)
        note("hook", old.hook != new.hook, live: (old.hook == nil) == (new.hook == nil))
        note("hook-timeout", old.hookTimeoutSeconds != new.hookTimeoutSeconds)
        note("hook-retries", old.hookRetries != new.hookRetries)
        note("hook-log", old.hookLog != new.hookLog, live: false)
        note("first-sync-announce", old.firstSyncAnnounce != new.firstSyncAnnounce)
        // Without `download` the queue still runs for feeds set `add --download` (into the
        // fallback folder), so the directory itself changes live.
        note("download", old.downloadDirectory != new.downloadDirectory)
        note("download-name", old.downloadName != new.downloadName)
        note("download-jobs", old.downloadJobs != new.downloadJobs)
        note("download-per-host", old.downloadPerHost != new.downloadPerHost)
        note("download-rate", old.downloadRate != new.downloadRate)
        note("download-max-size", old.downloadMaxSize != new.downloadMaxSize)
        note("keep", old.keep != new.keep)
        note("hook-on", old.hookOn != new.hookOn)
        note("http", old.http != new.http, live: false)
        note("http-token", old.httpToken != new.httpToken, live: false)
        note("http-public-origin", old.httpPublicOrigin != new.httpPublicOrigin, live: false)
        return out
    }
}
