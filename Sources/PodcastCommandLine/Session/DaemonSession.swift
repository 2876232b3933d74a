import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore
import PodcastWeb

#if canImport(Glibc)
import Glibc
#endif

/// `podcast-watch run` (and `demo`): the daemon on `EventLoop.main` with its view, hooks and
/// signal handling, until stopped.
///
/// - SIGINT / SIGTERM: `PodcastDaemon.stop()` (in-flight fetches abandoned, nothing half
///   written: every applied update is one committed transaction), then the loop ends after its
///   flush and the caller releases the store (closing the database). Exit status 0, except for
///   a `--once` pass not finished yet: 130 (SIGINT) or 143 (SIGTERM).
/// - SIGHUP: reads the config file again (`ConfigReload`: what can change live is applied, the
///   rest is named as needing a restart, a broken file is refused whole) and reloads the
///   subscriptions from the store. SIGUSR1: polls every feed now.
/// - SIGCHLD (and a 5 s timer as a safety net): reaps finished hooks.
/// - `--once`: ends when every feed was polled and the hooks have finished; status 1 if a feed
///   failed, or a download's last attempt in this run failed (each failure is named on stderr).
/// - A failed write to stdout stops the session with status 5; what was not written stays
///   pending in the store and is announced on the next start.
///
/// `run()` reads as its steps: build the parts (`Parts`), wire the daemon's callbacks, install
/// the signal handlers, start polling, make the view and the dashboard, run the loop, shut down.
/// Where the session stands is one `Phase`; whether stdout takes more is one `OutputState`.
///
/// Threading: main thread only (it drives `EventLoop.main`). A session runs once.
final class DaemonSession {
    /// Where the session stands. It only moves forward: `running` → `passFinished` (`--once`)
    /// → `stopping`; a stop signal can come in either of the first two.
    enum Phase: Equatable {
        /// Polling; the loop runs until something stops it.
        case running
        /// `--once`: every feed was polled. The loop ends once the output is written and no hook
        /// or download is running or waiting (`finishIfIdle`).
        case passFinished
        /// A stop signal came: the daemon stopped, running hooks get their grace, then the loop
        /// ends. `announcedHookWait`: the wait for running hooks was said on stderr (once).
        case stopping(announcedHookWait: Bool)

        /// Whether a stop signal came.
        var isStopping: Bool {
            if case .stopping = self { return true }
            return false
        }
    }

    /// Whether stdout takes more output.
    enum OutputState: Equatable {
        /// Writable.
        case open
        /// The non-blocking queue was full when a view wrote: the views redraw once it drains.
        case waitingForRoom
        /// A write failed (stdout closed, disk full, reader gone): nothing more is written, the
        /// session stops with status 5, and what was not written stays pending in the store.
        case failed
    }

    /// The parts one `run` builds and wires, released at its end (their closures hold the
    /// session, so keeping them past `run()` would be a cycle).
    struct Parts {
        let loop: EventLoop
        let scheduler: LoopScheduler
        let workers: WorkerPool
        let fetcher: HTTPFetcher
        let daemon: PodcastDaemon<LoopScheduler>
        let webMetrics: WebMetrics?
    }

    let store: FeedStore
    // The options in force: a reload replaces those that apply live (`ConfigReload`).
    var options: RunOptions
    let configReload: ConfigReload?
    let console: Console
    let crashAfterCommits: Int?
    let hookLogDefault: String?
    let notifier: ServiceNotifier
    var exitCode: ExitCode = .success
    var phase = Phase.running
    var outputState = OutputState.open
    var output: NonBlockingOutput?
    var downloads: DownloadQueue?
    var hooks: HookRunner?
    // Retry delays and timeouts of hooks: one-shot loop timers, each kept until it fired.
    var hookTimers: [Int: EventRegistration] = [:]
    var hookTimerSerial = 0
    var hookLogFD: Int32 = -1
    var registrations: [EventRegistration] = []
    var terminal: TerminalView<LoopScheduler>?
    var lines: JSONLinesView<LoopScheduler>?
    var web: WebDashboard?
    // Episodes whose last download attempt in this session failed (`--once`'s exit status).
    var failedDownloads: Set<Int64> = []
    /// Queued stdout bytes above which `run` takes no more output until the reader catches up.
    static let outputBound = 64 * 1024

    /// `crashAfterCommits` (from `$PODCAST_WATCH_CRASH_AFTER_COMMITS`, for crash-safety tests
    /// only, and read in debug builds only): the process SIGKILLs itself right after its Nth poll
    /// committed, before announcing anything about it. Release builds compile the failpoint out.
    /// `hookLogDefault`: the hook log while the live table is on and `--hook-log` is not given
    /// (`hooks.log` in the state directory).
    /// `environment`: where `NOTIFY_SOCKET` and `WATCHDOG_USEC` come from (`ServiceNotifier`).
    /// `configReload`: how SIGHUP reads the options again (`nil`: it reloads the subscriptions
    /// only).
    init(
        store: FeedStore, options: RunOptions, console: Console, crashAfterCommits: Int? = nil,
        hookLogDefault: String? = nil,
        environment: [String: String] = [:], configReload: ConfigReload? = nil
    ) {
        self.configReload = configReload
        self.hookLogDefault = hookLogDefault
        self.notifier = ServiceNotifier(environment: environment)
        self.store = store
        self.options = options
        self.console = console
        self.crashAfterCommits = crashAfterCommits
    }

    // The callbacks the steps install capture `self` strongly on purpose: they are owned by the
    // daemon, the hook runner, the queue and the views, which `run()` releases at its end, so no
    // cycle outlives it. (Weak captures of a session that callers create as a temporary made the
    // optimiser warn that the reference "will always be nil".)

    func run() -> ExitCode {
        let parts = makeParts()
        defer { releaseParts() }
        if let failed = makeHooks(parts) { return failed }
        wireDaemon(parts)
        do {
            try installSignalHandlers(parts)
        } catch {
            console.err("podcast-watch: cannot install signal handlers: \(error)\n")
            return .internalError
        }
        // The handlers exist: a SIGHUP or SIGUSR1 that came while starting is delivered now.
        EarlySignals.release()
        if let failed = startPolling(parts.daemon) { return failed }
        makeViews(parts)
        startDashboard(parts)
        runLoop(parts.loop)
        shutDown(parts)
        return exitCode
    }

    // Parsing and local-file reads run on one worker per core, never on the loop thread; the
    // daemon and the downloads share one fetcher (one libcurl multi handle).
    private func makeParts() -> Parts {
        let loop = EventLoop.main
        let scheduler = LoopScheduler.main
        let workers = WorkerPool(loop: loop)
        let fetcher = HTTPFetcher(eventBase: loop.base, fileReader: workers)
        let webMetrics = options.http.map { _ in WebMetrics() }  // --http: fetches are timed for /metrics
        store.firstSyncAnnounceLimit = options.firstSyncAnnounce
        var configuration = PodcastDaemon<LoopScheduler>.Configuration(
            intervalOverride: options.intervalSeconds, once: options.once, awaitsOutputConfirmation: true)
        configuration.onceIgnoresBackoff = options.force
        let daemon = PodcastDaemon(
            store: store, fetcher: webMetrics.map { TimedFetcher(fetcher, metrics: $0) } ?? fetcher,
            parse: FeedParsing.parse, offLoop: workers, scheduler: scheduler,
            configuration: configuration)
        return Parts(
            loop: loop, scheduler: scheduler, workers: workers, fetcher: fetcher, daemon: daemon, webMetrics: webMetrics
        )
    }

    // Loads the subscriptions and starts polling (and the download queue), resumes the hook
    // attempts an earlier run owed, and tells the service manager. `nil`, or the exit status of
    // a store that cannot be read.
    private func startPolling(_ daemon: PodcastDaemon<LoopScheduler>) -> ExitCode? {
        do {
            try daemon.start()
            try downloads?.start()
        } catch {
            console.err("podcast-watch: cannot load the subscriptions: \(error)\n")
            return .stateError
        }
        // Hook attempts a previous run still owed (a retry waiting, a hook killed at shutdown).
        if let hooks { resumeHookRetries(hooks) }
        showOwedHookRetries(daemon)
        // Polling has begun (the first due feeds are being fetched): the service is up.
        notifier.ready(status: DaemonSession.status(daemon.library.count))
        // Without the live table (a service, a pipe, --json) nothing else would say why nothing
        // happens. `run` keeps running, and a SIGHUP after `add` picks the feeds up; `--once`
        // ends with status 0 (nothing failed), but says so: a cron job pointed at the wrong
        // state directory must not look like a quiet success.
        if daemon.library.count == 0 && (options.once || options.json || !console.isTerminal) {
            console.err(DaemonSession.emptyHint(once: options.once, service: notifier.isActive, pid: getpid()))
        }
        return nil
    }

    private func runLoop(_ loop: EventLoop) {
        do {
            if outputState != .failed { try loop.run() }
            if options.once && !failedDownloads.isEmpty && exitCode == .success { exitCode = .feedFailed }
        } catch {
            console.err("podcast-watch: event loop failed: \(error)\n")
            exitCode = .internalError
        }
    }

    // After the loop: the daemon stops, hooks still running are killed (their attempts kept for
    // the next start, never orphaned), transfers end (their .part files stay), and a last
    // synchronous draw confirms what it shows before the store closes.
    private func shutDown(_ parts: Parts) {
        notifier.stoppingOnce()
        parts.daemon.stop()
        // Stopped another way (a store or output error): hooks still running are killed now.
        if let hooks, hooks.runningCount > 0 {
            hooks.after = nil
            hooks.shutDown(grace: 0) {}
            let deadline = Date().addingTimeInterval(2)
            while hooks.runningCount > 0 && Date() < deadline {
                hooks.reap()
                usleep(5_000)
            }
        }
        // The hooks' last lines still in their relays' pipes are written before we exit.
        if hooks?.outputRelay != nil { HookOutputRelay.drain(timeout: 1) }
        downloads?.stop()  // transfers end, their .part files stay for the next start
        parts.fetcher.cancelAll()
        for registration in registrations { registration.cancel() }
        for timer in hookTimers.values { timer.cancel() }
        hookTimers.removeAll()
        // A last synchronous draw, so nothing reported stays unwritten (idempotent for JSON),
        // and what it shows is confirmed before the store closes.
        if outputState != .failed {
            lines?.updateView()
            if parts.daemon.undeliveredCount > 0 { terminal?.updateView() }
        }
        if phase.isStopping || outputState == .failed {
            output?.close()  // what is still queued was never confirmed: it stays pending
        } else {
            output?.finishBlocking()
        }
        web?.close()
    }

    // Everything `run()` made holds the session through its closures: let it go.
    private func releaseParts() {
        if hookLogFD >= 0 { close(hookLogFD) }
        hookLogFD = -1
        output = nil
        downloads = nil
        hooks = nil
        registrations = []
        terminal = nil
        lines = nil
        web = nil
    }

    // In --once mode: stop when every feed was polled and no hook is running or queued.
    func finishIfIdle(_ loop: EventLoop) {
        guard phase == .passFinished else { return }
        // --once ends with its output written.
        if let output, output.pendingBytes > 0 || outputState == .waitingForRoom { return }
        if let hooks, hooks.runningCount + hooks.queuedCount + hooks.retryingCount > 0 { return }
        if let downloads, downloads.isBusy { return }  // --once downloads (and their retention) too
        loop.stop()
    }

    /// The service manager's status line (`systemctl status`).
    static func status(_ feeds: Int) -> String {
        feeds == 0 ? "No subscriptions; add one and send SIGHUP" : "Polling \(feeds) feed\(feeds == 1 ? "" : "s")"
    }
}
