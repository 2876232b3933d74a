import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// Runs one `podcast-watch` command line and returns its exit status. `Sources/podcast-watch`
/// is just `exit(CommandRunner(...).run(arguments).rawValue)`; tests call it with a collecting
/// `Console` and a temporary `--state`.
///
/// Threading: call `run` on the main thread (the daemon commands drive `EventLoop.main`).
public final class CommandRunner {
    /// Where output goes.
    public let console: Console
    /// The environment (for `XDG_STATE_HOME`, `HOME`, `PODCAST_WATCH_SAMPLES`).
    public let environment: [String: String]
    /// The directory relative paths are resolved against.
    public let currentDirectory: String
    /// The sample feeds for `demo` when neither `--samples` nor `$PODCAST_WATCH_SAMPLES` is given
    /// (the executable passes the source tree's `SampleFeeds` folder).
    public let defaultSamplesDirectory: String?
    /// Set by `run(_:)` for a `run` command line: how the daemon reads its options again at
    /// SIGHUP (`nil` when there is no config file path at all, or for `execute` called alone).
    var configReload: ConfigReload?
    /// `run`'s options as the config file sets them (for `feed-url`, which prints the address
    /// `run --http` serves); `nil` without a config file.
    var configuredRun: RunOptions?

    /// A runner with explicit surroundings; defaults are the process's own.
    public init(
        console: Console = .standard, environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath, defaultSamplesDirectory: String? = nil
    ) {
        self.console = console
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.defaultSamplesDirectory = defaultSamplesDirectory
    }

    /// Parses and runs `arguments` (without the program name). Never traps on bad input: usage
    /// errors print the message and the command's short usage on stderr and return `.usage`.
    public func run(_ arguments: [String]) -> ExitCode {
        var invocation: Invocation
        do {
            invocation = try CommandLineParser.parse(arguments)
        } catch {
            console.err("podcast-watch: \(error.message)\n" + UsageText.short(for: error.command))
            return .usage
        }
        // Every command that uses the state reads the config file, so its `state` means the same
        // to `add` and `list` as to `run`; `run` also takes its options (the command line wins).
        if invocation.usesState, let path = RunConfig.path(environment: environment) {
            let config: RunConfig?
            do {
                config = try RunConfig.load(
                    path: path, required: environment["PODCAST_WATCH_CONFIG"].map { !$0.isEmpty } ?? false,
                    environment: environment, warn: { [console] in console.err("podcast-watch: warning: \($0)\n") })
            } catch {
                console.err("podcast-watch: \(error.message)\n")
                return .usage
            }
            if case .run = invocation.command {
                configReload = ConfigReload(
                    path: path, required: environment["PODCAST_WATCH_CONFIG"].map { !$0.isEmpty } ?? false,
                    environment: environment, arguments: arguments, currentDirectory: currentDirectory)
            }
            if let config {
                if case .run = invocation.command {
                    do {
                        invocation = try CommandLineParser.parse(arguments, runDefaults: config.runTokens)
                    } catch {
                        console.err(
                            "podcast-watch: \(error.message) (with \(path))\n" + UsageText.short(for: error.command))
                        return .usage
                    }
                }
                if case .feedURL = invocation.command,
                    case .run(let options)? = try? CommandLineParser.parse(["run"], runDefaults: config.runTokens)
                        .command
                {
                    configuredRun = options
                }
                if invocation.stateDirectory == nil { invocation.stateDirectory = config.stateDirectory }
            }
        }
        return execute(invocation)
    }

    /// Runs an already parsed invocation.
    public func execute(_ invocation: Invocation) -> ExitCode {
        let stateOption = invocation.stateDirectory
        // Only the daemon handles SIGHUP/SIGUSR1 (it releases them once its handlers exist).
        switch invocation.command {
        case .run, .demo: break
        default: EarlySignals.release()
        }
        switch invocation.command {
        case .help(let topic):
            return emitting { () throws(OutputError) in try emit(UsageText.help(for: topic)) }
        case .version:
            return emitting { () throws(OutputError) in try emit("podcast-watch \(UsageText.version)\n") }
        case .add(let url, let title, let interval, let downloads, let check, let replace):
            return withStore(stateOption, create: true) { store in
                try add(store, url, title, interval, downloads, check: check, replace: replace)
            }
        case .remove(let url):
            return withStore(stateOption, create: false) { store in try remove(store, url) }
        case .removeID(let id):
            return withStore(stateOption, create: false) { store in try remove(store, id: id) }
        case .setEnabled(let key, let enabled):
            return withStore(stateOption, create: false) { store in try setEnabled(store, key, enabled) }
        case .set(let key, let changes):
            return withStore(stateOption, create: false) { store in try setFeed(store, key, changes) }
        case .list(let json):
            return withStore(stateOption, create: false) { store in try list(store, json: json) }
        case .importOPML(let path):
            return withStore(stateOption, create: true) { store in try importOPML(store, path) }
        case .export:
            return withStore(stateOption, create: false) { store in try export(store) }
        case .run(let options):
            return withStore(stateOption, create: true, exclusive: true) { store in try runDaemon(store, options) }
        case .show(let target, let json):
            return show(target, json: json)
        case .demo(let samples, let json):
            return demo(samples: samples, json: json)
        case .downloads(let json):
            return withStore(stateOption, create: false) { store in try downloads(store, json: json) }
        case .download(let ask):
            return withStore(stateOption, create: false) { store in try download(store, ask) }
        case .cancelDownload(let id):
            return withStore(stateOption, create: false) { store in try cancelDownload(store, episodeID: id) }
        case .deleteDownload(let id):
            return withStore(stateOption, create: false) { store in try deleteDownload(store, episodeID: id) }
        case .feedURL(let key, let rotate):
            return withStore(stateOption, create: true) { store in try feedURL(store, key, rotate: rotate) }
        }
    }

    // MARK: State

    /// Opens the store under `--state` (or the default directory) and runs `body`. `create`:
    /// make the directory (mode 0700) and database if missing; otherwise a missing database
    /// means "no subscriptions" and `body` gets `nil`. Store errors become exit status 3.
    /// `exclusive` (`run`, `demo`): hold `StateLock` on the directory for the whole of `body`, so
    /// two daemons never poll and announce from one state (exit status 6 when it is taken).
    func withStore(_ option: String?, create: Bool, exclusive: Bool = false, _ body: (FeedStore?) throws -> ExitCode)
        -> ExitCode
    {
        guard let dir = StateLocation.resolve(option, environment: environment, currentDirectory: currentDirectory)
        else {
            console.err("podcast-watch: no state directory: set --state DIR, XDG_STATE_HOME or HOME\n")
            return .stateError
        }
        let path = dir + "/" + StateLocation.databaseName
        if let refused = checkStateDirectory(dir, path: path, option: option, create: create) { return refused }
        var lock: StateLock?
        defer { withExtendedLifetime(lock) {} }
        let store: FeedStore?
        switch openStore(dir, path: path, create: create, exclusive: exclusive, lock: &lock) {
        case .opened(let opened): store = opened
        case .refused(let status): return status
        }
        do {
            return try body(store)
        } catch let error as OutputError {
            return outputFailed(error)
        } catch let error as StoreError {
            console.err("podcast-watch: state database \(path): \(error)\n")
            return .stateError
        } catch {
            console.err("podcast-watch: \(error)\n")
            return .stateError
        }
    }

    // A state directory that is a file, under a file, or unreadable: said on stderr, exit 3.
    private func checkStateDirectory(_ dir: String, path: String, option: String?, create: Bool) -> ExitCode? {
        // A file where the directory should be: say so (it used to read as "no subscriptions",
        // or fail with a raw Foundation error on add).
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), !isDirectory.boolValue {
            console.err(
                "podcast-watch: \(option.map { "--state " + $0 } ?? "state directory " + dir): not a directory\n")
            return .stateError
        }
        // A path under a file ("F/sub" with F a regular file) cannot be a directory either: a
        // read-only command would otherwise report "no subscriptions" (a creating one names the
        // file when mkdir fails, below).
        var info = stat()
        if !create && stat(dir, &info) != 0 && errno == ENOTDIR {
            console.err(
                "podcast-watch: \(option.map { "--state " + $0 } ?? "state directory " + dir): a parent is not a directory\n"
            )
            return .stateError
        }
        // A directory that cannot be searched (chmod 000) hides the database: it must not read as
        // "no subscriptions", or `export > backup.opml` silently writes an empty backup.
        var database = stat()
        // ENOTDIR: named above or by mkdir below.
        if stat(path, &database) != 0 && errno != ENOENT && errno != ENOTDIR {
            console.err(
                "podcast-watch: cannot read the state directory \(dir): \(path): \(String(cString: strerror(errno)))\n")
            return .stateError
        }
        if stat(path, &database) == 0 && access(path, R_OK) != 0 {
            console.err("podcast-watch: cannot read the state database \(path): \(String(cString: strerror(errno)))\n")
            return .stateError
        }
        return nil
    }

    private enum OpenedStore {
        case opened(FeedStore?)
        case refused(ExitCode)
    }

    // Creates the directory and database when asked (or opens an existing one), holding the
    // state lock for `exclusive` commands; `nil` store when there is none and none is created.
    private func openStore(_ dir: String, path: String, create: Bool, exclusive: Bool, lock: inout StateLock?)
        -> OpenedStore
    {
        do {
            if FileManager.default.fileExists(atPath: path) || create {
                do {
                    try PosixDirectory.create(dir)
                } catch {
                    // "F/sub: Not a directory", not Foundation's "NSCocoaErrorDomain error 512".
                    console.err("podcast-watch: cannot create the state directory \(dir): \(error)\n")
                    return .refused(.stateError)
                }
                if exclusive {
                    switch StateLock.acquire(directory: dir) {
                    case .acquired(let held): lock = held
                    case .busy:
                        console.err(
                            "podcast-watch: --state \(dir) is in use by another 'podcast-watch run' (\(dir)/\(StateLock.fileName) is locked); stop it first\n"
                        )
                        return .refused(.stateLocked)
                    case .failed(let code):
                        console.err(
                            "podcast-watch: cannot lock \(dir)/\(StateLock.fileName): \(String(cString: strerror(code)))\n"
                        )
                        return .refused(.stateError)
                    }
                }
                return .opened(try FeedStore(path: path))
            }
            return .opened(nil)
        } catch let error as StoreError {
            console.err("podcast-watch: cannot open the state database: \(error)\n")
            return .refused(.stateError)
        } catch {
            console.err("podcast-watch: cannot create the state directory \(dir): \(error.localizedDescription)\n")
            return .refused(.stateError)
        }
    }

    /// Writes command output to stdout; throws `OutputError` when it could not be written.
    func emit(_ text: String) throws(OutputError) {
        try console.write(text)
    }

    /// Runs `body`, turning a failed stdout write into its message and exit status 5.
    func emitting(_ body: () throws(OutputError) -> Void) -> ExitCode {
        do {
            try body()
            return .success
        } catch {
            return outputFailed(error)
        }
    }

    func outputFailed(_ error: OutputError) -> ExitCode {
        // The reader went away (`list | head`): quiet, as Unix tools are, but still status 5.
        if error.code != EPIPE { console.err("podcast-watch: cannot write to stdout: \(error)\n") }
        return .outputError
    }

    func location(_ text: String) -> String? {
        do {
            return try FeedLocation.normalize(text, currentDirectory: currentDirectory, home: environment["HOME"])
        } catch {
            console.err("podcast-watch: \(error)\n")
            return nil
        }
    }

    // MARK: Subscriptions

    private func add(
        _ store: FeedStore?, _ url: String, _ title: String?, _ interval: Int?,
        _ downloads: DownloadLedger.FeedSettings = .init(), check: Bool = true, replace: Bool = false
    ) throws -> ExitCode {
        guard let store else { return .stateError }
        guard let normalized = location(url) else { return .usage }
        // A local feed must exist: a typo (or a non-URL such as 'not a url') would otherwise
        // become a subscription that fails forever.
        if let path = URL(string: normalized).flatMap({ $0.isFileURL ? $0.path : nil }),
            !FileManager.default.fileExists(atPath: path)
        {
            console.err(
                "podcast-watch: no such file: \(path) (from '\(url)'; a feed is an http(s):// URL, a file:// URL or the path of an existing file)\n"
            )
            return .inputError
        }
        // A directory, FIFO or device (`/dev/null`, `/dev/stdin`) is no feed file: polling it
        // would fail forever, or block.
        if let path = URL(string: normalized).flatMap({ $0.isFileURL ? $0.path : nil }),
            let refusal = FileFetch.refusal(path: path)
        {
            console.err("podcast-watch: \(refusal) (from '\(url)'; a local feed must be a regular file)\n")
            return .inputError
        }
        // One fetch first (not for a URL already subscribed: that is said below, without a fetch).
        var target = normalized
        var feedTitle: String?
        var feedGUID: String?
        if check, try store.feed(url: normalized) == nil {
            switch checkFeed(normalized) {
            case .subscribe(let found, let channelTitle, let podcastGUID):
                target = found
                feedTitle = channelTitle
                feedGUID = podcastGUID
                // The same show under another URL: refused, or moved there with --replace.
                if let status = try sameShow(store, url: found, podcastGUID: podcastGUID, replace: replace) {
                    return status
                }
            case .refused(let status):
                return status
            }
        }
        do {
            let feed = try store.add(url: target, title: title, intervalSeconds: interval)
            try store.setFeedTitle(feedTitle, id: feed.id)
            try store.setPodcastGUID(feedGUID, id: feed.id)
            if downloads != .init() { try DownloadLedger(store: store).setSettings(downloads, feedID: feed.id) }
            // The title the check found (or the user's, which lists show instead) beside the URL.
            let shown = feedTitle.map { TerminalText.line(title ?? $0) + " <" } ?? ""
            console.out(
                "Subscribed to \(shown)\(TerminalText.line(MaskedURL.string(feed.url)))\(shown.isEmpty ? "" : ">") (feed #\(feed.id), \(CommandRunner.describeInterval(feed.intervalSeconds)))\n"
            )
            return .success
        } catch StoreError.alreadySubscribed(let url, let id) {
            console.err("podcast-watch: \(MaskedURL.string(url)) is already subscribed (feed #\(id))\n")
            return .feedFailed
        } catch StoreError.invalidURL(let url, let reason) {
            console.err("podcast-watch: invalid feed URL '\(url)': \(reason)\n")
            return .usage
        }
    }

    private func remove(_ store: FeedStore?, id: Int64) throws -> ExitCode {
        if let store, let feed = try store.feed(id: id) {
            try store.remove(id: feed.id)
            console.out(
                "Unsubscribed from \(TerminalText.line(MaskedURL.string(feed.url))) (\(TerminalText.line(feed.displayTitle)))\n"
            )
            return .success
        }
        console.err("podcast-watch: no feed #\(id) (see 'podcast-watch list')\n")
        return .feedFailed
    }

    // The key as typed, then normalised like `add` (a path is relative to the current
    // directory); current URLs first, then URLs the feed had before a move. Never an id.
    func feed(_ store: FeedStore, url key: String) throws -> FeedRecord? {
        try store.feed(anyURL: key)
            ?? (try? FeedLocation.normalize(key, currentDirectory: currentDirectory, home: environment["HOME"]))
            .flatMap({ try store.feed(anyURL: $0) })
    }

    /// The feed `key` names (`enable`, `disable`, `set`), or `nil` after saying on stderr that
    /// there is none.
    func feed(_ store: FeedStore?, _ key: FeedSelector) throws -> FeedRecord? {
        let found: FeedRecord?
        switch key {
        case .id(let id): found = try store?.feed(id: id)
        case .url(let url): found = try store.flatMap { try feed($0, url: url) }
        }
        if found == nil {
            switch key {
            case .id(let id): console.err("podcast-watch: no feed #\(id) (see 'podcast-watch list')\n")
            case .url(let url): console.err("podcast-watch: not subscribed: \(url) (see 'podcast-watch list')\n")
            }
        }
        return found
    }

    private func setEnabled(_ store: FeedStore?, _ key: FeedSelector, _ enabled: Bool) throws -> ExitCode {
        guard let feed = try feed(store, key), let store else { return .feedFailed }
        let name =
            "feed #\(feed.id) \(TerminalText.line(feed.displayTitle)) <\(TerminalText.line(MaskedURL.string(feed.url)))>"
        if feed.enabled == enabled && (!enabled || feed.status != .gone) {
            console.out("Already \(enabled ? "enabled" : "disabled"): \(name)\n")
            return .success
        }
        try store.setEnabled(enabled, id: feed.id)
        // A running daemon reads subscriptions at start and on SIGHUP only.
        console.out(
            "\(enabled ? "Enabled" : "Disabled") \(name); a running 'podcast-watch run' picks this up on SIGHUP\n")
        return .success
    }

    private func remove(_ store: FeedStore?, _ key: String) throws -> ExitCode {
        if let store, let feed = try feed(store, url: key) {
            try store.remove(id: feed.id)
            console.out(
                "Unsubscribed from \(TerminalText.line(MaskedURL.string(feed.url))) (\(TerminalText.line(feed.displayTitle)))\n"
            )
            return .success
        }
        console.err("podcast-watch: not subscribed: \(key) (see 'podcast-watch list')\n")
        return .feedFailed
    }

    private func list(_ store: FeedStore?, json: Bool) throws -> ExitCode {
        let feeds = try store?.feeds() ?? []
        for feed in feeds {
            let episodes = try store?.episodeCount(feedID: feed.id) ?? 0
            // Owed hook attempts: a hook failing now shows before it gives up.
            let retries = try store?.pendingHookRetries(feedID: feed.id) ?? []
            if json {
                // Present only when there is something to say (old scripts see the same keys).
                var extra: [(String, OrderedJSON)] = []
                if !retries.isEmpty { extra.append(("hook_retry", CommandRunner.hookRetryJSON(retries))) }
                extra += store.flatMap { CommandRunner.downloadMembers($0, feedID: feed.id) } ?? []
                try emit(
                    OrderedJSON.object(
                        [
                            ("id", .int(feed.id)), ("url", .string(MaskedURL.string(feed.url))),
                            ("title", .string(feed.knownTitle)),
                            ("status", .string(feed.health.rawValue)),
                            ("interval", .int(feed.intervalSeconds)), ("last_check", .date(feed.lastCheck)),
                            ("last_success", .date(feed.lastSuccess)), ("last_error", .string(feed.lastError)),
                            ("episodes", .int(episodes)), ("new_episodes", .int(feed.newEpisodeCount)),
                            ("enabled", .bool(feed.enabled)), ("hook_error", .string(feed.hookError)),
                        ] + extra
                    ).serialized + "\n")
            } else {
                let checked = feed.lastCheck.map { "checked " + OrderedJSON.iso8601($0) } ?? "never checked"
                // "disabled" alone does not say whether the user or a 410 turned it off.
                let status =
                    !feed.enabled && feed.status != .gone
                    ? "disabled (by 'disable'; 'podcast-watch enable --id \(feed.id)' resumes)"
                    : feed.status == .gone
                        ? "disabled (410 Gone; 'podcast-watch enable --id \(feed.id)' retries it)"
                        : feed.health.rawValue
                // Titles, URLs and errors come from feeds and servers: neutralised for the terminal.
                try emit(
                    "\(feed.id)  \(TerminalText.line(feed.displayTitle))\n    \(TerminalText.line(MaskedURL.string(feed.url)))\n    \(status), \(checked), \(episodes) episodes, \(CommandRunner.describeInterval(feed.intervalSeconds))\n"
                )
                if let error = feed.lastError { try emit("    last error: \(TerminalText.line(error))\n") }
                if let error = feed.hookError { try emit("    hook failing: \(TerminalText.line(error))\n") }
                if let line = CommandRunner.hookRetryLine(retries) { try emit(line) }
                if let store, let line = CommandRunner.downloadLine(store, feedID: feed.id) { try emit(line) }
            }
        }
        if feeds.isEmpty && !json { console.err("No subscriptions. Add one with: podcast-watch add URL\n") }
        try console.flush()  // a deferred write error of list > FILE
        return .success
    }

    // "every 10 min", or "default interval" (run --interval, else 1 h) for a feed without one.
    static func describeInterval(_ seconds: Int?) -> String {
        seconds.map { "every " + formatInterval($0) } ?? "default interval"
    }

    /// Whole seconds in the largest unit `--interval` takes that divides them exactly:
    /// `30 d`, `36 h`, `15 min`, `90 s`.
    static func formatInterval(_ seconds: Int) -> String {
        for (size, unit) in [(86_400, "d"), (3600, "h"), (60, "min")] where seconds > 0 && seconds % size == 0 {
            return "\(seconds / size) \(unit)"
        }
        return "\(seconds) s"
    }
}
