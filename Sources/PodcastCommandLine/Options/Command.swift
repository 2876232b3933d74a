import PodcastEngine
import PodcastStore
import PodcastWeb

/// A parsed `podcast-watch` command line: the global options and one command.
public struct Invocation: Equatable, Sendable {
    /// `--state DIR` as given (not yet resolved); `nil` means the default location
    /// (see `StateLocation.defaultDirectory(environment:)`).
    public var stateDirectory: String?
    /// What to do.
    public var command: Command

    /// An invocation of `command` with an optional state directory.
    public init(stateDirectory: String? = nil, command: Command) {
        self.stateDirectory = stateDirectory
        self.command = command
    }

    /// Whether the command reads or writes the state directory (and so reads the config file,
    /// whose `state` key applies to it): every command but `help`, `version`, `show` and `demo`
    /// (which uses a throwaway state of its own).
    public var usesState: Bool {
        switch command {
        case .help, .version, .show, .demo: return false
        default: return true
        }
    }
}

/// One `podcast-watch` command with its own options, already validated (URLs are still as typed;
/// `FeedLocation.normalize` turns them into absolute URLs when the command runs).
public enum Command: Equatable, Sendable {
    /// `--help`, `help [COMMAND]` or `COMMAND --help`: print the usage of `topic` (a command
    /// name) or the general usage when `nil`.
    case help(topic: String?)
    /// `--version`.
    case version
    /// `add URL [--title T] [--interval SECONDS] [--download | --no-download] [--keep N]
    /// [--no-check]` or `add URL --replace`. `check`: fetch the URL first and subscribe only to
    /// a feed (`FeedCheck`); false with `--no-check`. `replace` (`--replace`, always with
    /// `check` and no other option): instead of subscribing, move the one subscription whose
    /// `podcast:guid` the document at URL carries to URL, keeping its history.
    case add(
        url: String, title: String?, intervalSeconds: Int?, downloads: DownloadLedger.FeedSettings = .init(),
        check: Bool = true, replace: Bool = false)
    /// `remove URL`: the URL as given to `add`, or the feed's current URL after a move.
    case remove(url: String)
    /// `remove --id N`: the feed numbered N in `list`.
    case removeID(id: Int64)
    /// `enable URL | --id N` (`enabled` true) and `disable URL | --id N`: turn polling of one
    /// feed on or off, keeping its episodes and history. `key` is a URL as `remove` takes it.
    case setEnabled(key: FeedSelector, enabled: Bool)
    /// `set URL | --id N [--download | --no-download | --download-default] [--keep N|default]
    /// [--interval S|default]`: changes one feed's own settings, keeping its history.
    case set(key: FeedSelector, changes: FeedSettingsChange)
    /// `list [--json]`.
    case list(json: Bool)
    /// `import FILE.opml`.
    case importOPML(path: String)
    /// `export`: OPML 2.0 on stdout.
    case export
    /// `run [...]`: the daemon.
    case run(RunOptions)
    /// `show URL|FILE [--json]`.
    case show(target: String, json: Bool)
    /// `demo [--samples DIR] [--json]`: one pass over the bundled sample feeds with a throwaway
    /// state directory.
    case demo(samplesDirectory: String?, json: Bool)
    /// `downloads [--json]`: the download queue and history from the store.
    case downloads(json: Bool)
    /// `download --episode N | --failed | URL --all | --id N --all`: queue downloads by hand.
    case download(DownloadAsk)
    /// `cancel-download --episode N`.
    case cancelDownload(episodeID: Int64)
    /// `delete-download --episode N`.
    case deleteDownload(episodeID: Int64)
    /// `feed-url [URL | --id N] [--rotate]`: the local feed's URL of one feed (the library's
    /// without a feed), with a new secret when `rotate`.
    case feedURL(key: FeedSelector?, rotate: Bool)

    /// The command's name as typed (`import` for `.importOPML`).
    public var name: String {
        switch self {
        case .help: return "help"
        case .version: return "version"
        case .add: return "add"
        case .remove, .removeID: return "remove"
        case .setEnabled(_, let enabled): return enabled ? "enable" : "disable"
        case .set: return "set"
        case .list: return "list"
        case .importOPML: return "import"
        case .export: return "export"
        case .run: return "run"
        case .show: return "show"
        case .demo: return "demo"
        case .downloads: return "downloads"
        case .download: return "download"
        case .cancelDownload: return "cancel-download"
        case .deleteDownload: return "delete-download"
        case .feedURL: return "feed-url"
        }
    }
}

/// What `download` asks for.
public enum DownloadAsk: Equatable, Sendable {
    /// `--episode N`: one episode (the number `downloads` and the API show).
    case episode(Int64)
    /// `--failed`: every failed download, given up or waiting.
    case failed
    /// `URL --all` / `--id N --all`: every episode of the feed never queued.
    case backCatalogue(FeedSelector)
}

/// How `enable` and `disable` name a feed: its URL (current or before a move, as `remove URL`
/// takes it), or `--id N`, the number `list` shows. An operand is never read as an id, so a file
/// named "1" stays a file.
public enum FeedSelector: Equatable, Sendable {
    /// A URL or path as typed.
    case url(String)
    /// `--id N`.
    case id(Int64)
}

/// Options of `podcast-watch run`.
public struct RunOptions: Equatable, Sendable {
    /// `--once`: poll every feed once, then exit (status 1 if any failed).
    public var once: Bool
    /// `--interval S`: the poll interval in seconds for feeds without their own; `nil` means the
    /// policy default (3600 s).
    public var intervalSeconds: Int?
    /// `--hook CMD`: the user's command line, run by `/bin/sh -c` once per new episode with the
    /// details in environment variables.
    public var hook: String?
    /// `--json`: JSON lines on stdout even when it is a terminal.
    public var json: Bool
    /// `--first-sync-announce N`: how many of the newest episodes a feed's first sync announces.
    public var firstSyncAnnounce: Int
    /// `--force` (with `--once`): also poll feeds that are backing off (after failures or a
    /// `Retry-After`) before their next poll time.
    public var force: Bool = false
    /// `--hook-retries N`: further attempts after a hook failed (exit status not 0, killed,
    /// timed out), 15 s, 30 s, 60 s... apart. Default 3, at most 10.
    public var hookRetries: Int = HookRunner.Policy.daemonDefault.retries
    /// `--hook-timeout S`: seconds a hook may run before it is killed (its whole process group).
    /// Default 600 s.
    public var hookTimeoutSeconds: Int = 600
    /// `--hook-log FILE`: where hooks' stdout and stderr go. `nil`: `hooks.log` in the state
    /// directory while the live table is on (hooks would scramble it), else run's stderr.
    public var hookLog: String?
    /// `--http [ADDR:]PORT`: serve the web dashboard, API and metrics there (see `WebDashboard`).
    public var http: HTTPAddress?
    /// `--http-token TOKEN`: the token web clients must send; without it, one is generated for
    /// an address other than loopback.
    public var httpToken: String?
    /// `--http-public-origin URL`: the origin a reverse proxy serves the dashboard at; its
    /// `Host` and `Origin` are accepted, and a token is required unless it is loopback.
    public var httpPublicOrigin: HTTPPublicOrigin?

    /// `--download DIR`: download every feed's new episodes into DIR (feeds set
    /// `--no-download` excepted). Without it, only feeds set with `add --download` download,
    /// into `StateLocation`'s data folder (`$XDG_DATA_HOME/podcast-watch/downloads`).
    public var downloadDirectory: String?
    /// `--download-name TEMPLATE`: the file-name template (`DownloadNaming`).
    public var downloadName: String = DownloadNaming.defaultTemplate
    /// `--download-jobs N`: downloads in flight at most (1...64). Default 4.
    public var downloadJobs: Int = 4
    /// `--download-per-host N`: downloads in flight at most per host (1...16). Default 2.
    public var downloadPerHost: Int = 2
    /// `--download-rate RATE`: total bytes per second (`500k`, `2M`); 0: unlimited.
    public var downloadRate: Int64 = 0
    /// `--download-max-size SIZE`: the most bytes one downloaded file may have (`500M`, `4G`;
    /// at least 1M). Default 8 GiB (`DownloadSettings.defaultMaxFileBytes`).
    public var downloadMaxSize: Int64 = DownloadSettings.defaultMaxFileBytes
    /// `--keep N`: completed files kept per feed without its own `--keep`; `nil`: all.
    public var keep: Int?
    /// `--hook-on EVENTS`: when the hook runs, `new_episode` and/or `downloaded` (comma
    /// separated). Default `new_episode`.
    public var hookOn: Set<HookEvent> = [.newEpisode]
    /// Set by `CommandRunner` (not a flag): where feeds set `add --download` save their files
    /// when `--download` is not given.
    public var downloadFallbackDirectory: String?

    /// What a hook can run on.
    public enum HookEvent: String, Sendable, Hashable, CaseIterable {
        /// An episode was announced.
        case newEpisode = "new_episode"
        /// An episode's download completed (`EPISODE_FILE` names the file).
        case downloaded
    }

    /// The default number of episodes announced on a feed's first sync.
    public static let defaultFirstSyncAnnounce = 3

    /// Run options; defaults are those of a bare `podcast-watch run`.
    public init(
        once: Bool = false, intervalSeconds: Int? = nil, hook: String? = nil, json: Bool = false,
        firstSyncAnnounce: Int = RunOptions.defaultFirstSyncAnnounce
    ) {
        self.once = once
        self.intervalSeconds = intervalSeconds
        self.hook = hook
        self.json = json
        self.firstSyncAnnounce = firstSyncAnnounce
    }
}

/// What `set` changes on one feed. Each field: `nil` leaves the setting as it is; `.some(nil)`
/// returns it to `run`'s (`--download-default`, `--keep default`, `--interval default`);
/// `.some(value)` sets the feed's own, as `add` would have.
public struct FeedSettingsChange: Equatable, Sendable {
    /// `--download` (true), `--no-download` (false), `--download-default` (nil).
    public var download: Bool??
    /// `--keep N`, or `--keep default` (nil).
    public var keep: Int??
    /// `--interval S` in seconds, or `--interval default` (nil).
    public var intervalSeconds: Int??

    /// A change; every field left out is left alone.
    public init(download: Bool?? = nil, keep: Int?? = nil, intervalSeconds: Int?? = nil) {
        self.download = download
        self.keep = keep
        self.intervalSeconds = intervalSeconds
    }

    /// Whether nothing is asked (a usage error for `set`).
    public var isEmpty: Bool { download == nil && keep == nil && intervalSeconds == nil }
}
