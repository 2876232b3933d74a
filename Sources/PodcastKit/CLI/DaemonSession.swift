import Foundation
import LoopScheduler
import ViewModelKit

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
/// Threading: main thread only (it drives `EventLoop.main`).
final class DaemonSession {
    private let store: FeedStore
    // The options in force: a reload replaces those that apply live (`ConfigReload`).
    private var options: RunOptions
    private let configReload: ConfigReload?
    private let console: Console
    private let crashAfterCommits: Int?
    private let hookLogDefault: String?
    private let notifier: ServiceNotifier
    private var exitCode: ExitCode = .success
    private var finished = false
    private var outputFailed = false
    private var outputDeferred = false
    private var stoppedBySignal = false
    private var waitingForHooks = false
    private var output: NonBlockingOutput?
    private var downloads: DownloadQueue?
    // Episodes whose last download attempt in this session failed (`--once`'s exit status).
    private var failedDownloads: Set<Int64> = []
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

    func run() -> ExitCode {
        let loop = EventLoop.main
        let scheduler = LoopScheduler.main
        // Parsing and local-file reads run on one worker per core, never on the loop thread.
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
        let console = self.console
        // The callbacks below capture `self` strongly on purpose: they are owned by the daemon
        // and the hook runner, which are locals of this call, so no cycle outlives it. (Weak
        // captures of a session that callers create as a temporary made the optimiser warn that
        // the reference "will always be nil".)

        var hooks: HookRunner?
        // Retry delays and timeouts: one-shot loop timers, each kept until it fired.
        var hookTimers: [Int: EventRegistration] = [:]
        var hookTimerSerial = 0
        var hookLogFD: Int32 = -1
        defer { if hookLogFD >= 0 { close(hookLogFD) } }
        if let command = options.hook {
            let runner = HookRunner(command: command, policy: DaemonSession.hookPolicy(options))
            // `--once` waits out no backoff: a failed attempt's retry is kept for the next run.
            runner.defersRetries = options.once
            runner.after = { seconds, action in
                hookTimerSerial += 1
                let key = hookTimerSerial
                hookTimers[key] = loop.scheduleTimer(after: .milliseconds(Int(seconds * 1000))) {
                    hookTimers[key] = nil
                    action()
                }
            }
            // Hooks write to the terminal the live table redraws: their output goes to a log.
            let logPath = options.hookLog ?? (console.isTerminal && !options.json ? hookLogDefault : nil)
            if let logPath {
                hookLogFD = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o600)
                // A path that cannot be opened (a folder that does not exist, no permission) is
                // a configuration error, exit 2: restarting would not heal it, and the units do
                // not restart on 2. The folder is not created: a typo should not make folders.
                guard hookLogFD >= 0 else {
                    let reason = String(cString: strerror(errno))
                    let hint = errno == ENOENT ? " (its folder must exist)" : ""
                    console.err("podcast-watch: cannot open the hook log \(logPath): \(reason)\(hint)\n")
                    return .usage
                }
                runner.outputFD = hookLogFD
            } else {
                // Straight to stderr, hooks' output was raw: feed text echoed by a hook carried
                // escape sequences, and the journal got no level prefix.
                runner.outputRelay = .standard
            }
            DaemonSession.reportTerminations(
                of: runner, to: console,
                record: { [weak daemon] id, error in
                    daemon?.noteHookOutcome(feedID: id, error: error)
                },
                retries: store,
                retriesChanged: { [weak daemon] id in daemon?.noteHookRetries(feedID: id) },
                report: { [weak daemon] event, feedID in _ = daemon?.library.record(event, feedID: feedID) },
                finished: { runner in self.finishIfIdle(loop, hooks: runner) })
            if options.hookOn.contains(.newEpisode) { daemon.hooks = runner }
            hooks = runner
        }

        daemon.onWarning = { console.err("podcast-watch: warning: \($0)\n") }
        // Downloads (issue 14): same loop, same fetcher (multi handle), own queue and store table.
        let downloads = DaemonSession.makeDownloads(
            options: options, store: store, fetcher: fetcher, loop: loop, daemon: daemon, hooks: hooks,
            console: console)
        downloads?.onIdle = { self.finishIfIdle(loop, hooks: hooks) }
        // A failed download is a warning on stderr too (the journal's `-p warning` shows it,
        // not only the JSON line); one still failed at the end of `--once` makes the status 1.
        if let downloads {
            let recordEvent = downloads.onEvent
            downloads.onEvent = { event in
                recordEvent?(event)
                self.noteDownload(event)
            }
        }
        self.downloads = downloads
        #if DEBUG
        if let crashAfterCommits {
            var commits = 0
            daemon.onCommitted = { _ in
                commits += 1
                if commits == crashAfterCommits { kill(getpid(), SIGKILL) }
            }
        }
        #endif
        daemon.onFatalError = { error in
            console.err("podcast-watch: state database error, stopping: \(error)\n")
            self.exitCode = .stateError
            loop.stop()
        }
        daemon.onFinished = { [weak daemon] failed in
            if !failed.isEmpty {
                self.exitCode = .feedFailed
                for id in failed {
                    if let p = daemon?.library.podcast(id: id) {
                        console.err("podcast-watch: feed failed: \(p.label): \(p.lastError ?? "unknown error")\n")
                    }
                }
            }
            self.finished = true
            self.finishIfIdle(loop, hooks: hooks)
        }

        var registrations: [EventRegistration] = []
        do {
            // A --once pass cut short did not poll every feed: that is not success (130 / 143).
            let stop = { [weak daemon] (signal: Int32) in
                self.notifier.stoppingOnce()
                self.stoppedBySignal = true
                if self.options.once && !self.finished && self.exitCode == .success {
                    self.exitCode = signal == SIGINT ? .interrupted : .terminated
                }
                daemon?.stop()
                // Running hooks get a grace, then their groups are killed and their attempts
                // are kept for the next start; a second signal kills them at once.
                if let hooks {
                    if hooks.runningCount > 0 && !self.waitingForHooks {
                        self.waitingForHooks = true
                        let n = hooks.runningCount
                        console.err(
                            "podcast-watch: stopping: waiting up to \(HookRunner.Policy.format(HookRunner.shutdownGrace)) s for \(n) running hook\(n == 1 ? "" : "s") (signal again to kill \(n == 1 ? "it" : "them") now)\n"
                        )
                    }
                    hooks.shutDown { loop.stop() }
                } else {
                    loop.stop()
                }
            }
            registrations.append(try loop.onSignal(SIGINT) { stop(SIGINT) })
            registrations.append(try loop.onSignal(SIGTERM) { stop(SIGTERM) })
            let notifier = self.notifier
            registrations.append(
                try loop.onSignal(SIGHUP) { [weak daemon] in
                    // Stopping (a hook's grace): a config applied now would only confuse the stop.
                    if self.stoppedBySignal {
                        console.err("podcast-watch: stopping: SIGHUP ignored (no reload while stopping)\n")
                        return
                    }
                    notifier.reloading()
                    if let daemon { self.reloadConfig(daemon: daemon, hooks: hooks, downloads: downloads) }
                    do { try daemon?.reload() } catch { console.err("podcast-watch: reload failed: \(error)\n") }
                    downloads?.reloadSettings()
                    notifier.ready(status: DaemonSession.status(daemon?.library.count ?? 0))
                })
            // Petted from the loop, so a loop stuck for WATCHDOG_USEC gets the service restarted.
            if let interval = notifier.watchdogInterval {
                registrations.append(
                    loop.scheduleRepeatingTimer(every: .microseconds(Int(min(interval, UInt64(Int.max / 1000))))) {
                        notifier.petWatchdog()
                    })
            }
            registrations.append(try loop.onSignal(SIGUSR1) { [weak daemon] in daemon?.pollAllNow() })
            if let hooks {
                registrations.append(try loop.onSignal(SIGCHLD) { hooks.reap() })
                registrations.append(loop.scheduleRepeatingTimer(every: .seconds(5)) { hooks.reap() })
            }
        } catch {
            console.err("podcast-watch: cannot install signal handlers: \(error)\n")
            return .internalError
        }
        // The handlers exist: a SIGHUP or SIGUSR1 that came while starting is delivered now.
        EarlySignals.release()

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
        // The view: a live table on a terminal, JSON lines otherwise.
        // Created after start, so the first (synchronous) frame already lists the feeds.
        // Each frame or batch of lines confirms the announcements it showed (at-least-once).
        var terminal: TerminalView<LoopScheduler>?
        var lines: JSONLinesView<LoopScheduler>?
        // A failed write (stdout closed, disk full, reader gone) confirms nothing, so the
        // announcements stay pending for the next start; the daemon stops with status 5 rather
        // than poll on with nowhere to report.
        let writeFailed: (any Error) -> Void = { [weak daemon] error in
            if error is NonBlockingOutput.Busy { return }  // retried when the queue drains
            guard !self.outputFailed else { return }
            self.outputFailed = true
            console.err(
                "podcast-watch: cannot write to stdout (\(error)); stopping, the unwritten announcements stay pending\n"
            )
            self.exitCode = .outputError
            daemon?.stop()
            loop.stop()
        }
        // A pipe, socket or terminal is written without blocking the loop (a reader that stops
        // reading must not freeze signals and polling); a regular file is written directly.
        if let fd = console.descriptor, NonBlockingOutput.supports(fd: fd) {
            let queue = NonBlockingOutput(fd: fd, loop: loop, bound: DaemonSession.outputBound)
            queue.onError = { writeFailed($0) }
            queue.onDrained = {
                if self.outputDeferred {
                    self.outputDeferred = false
                    lines?.updateView()
                    terminal?.updateView()
                }
                self.finishIfIdle(loop, hooks: hooks)
            }
            output = queue
        }
        let output = self.output
        // Announcements count as delivered only once their bytes reached stdout.
        let delivered: (Int) -> Void = { [weak daemon] sequence in
            if let output {
                output.afterWritten { daemon?.outputDelivered(throughSequence: sequence) }
            } else {
                daemon?.outputDelivered(throughSequence: sequence)
            }
        }
        // Written and, for a file, synced before anything counts as delivered. While the queue
        // is full nothing more is taken: the view keeps its lines (or frame) for later.
        let write: (String) throws -> Void = { text in
            if let output {
                if output.isFull {
                    self.outputDeferred = true
                    throw NonBlockingOutput.Busy()
                }
                try output.enqueue(text)
            } else {
                try console.write(text)
                try console.flush()
            }
        }
        // The real terminal's height: a frame never has more lines than the screen.
        let screenHeight: Int? = console.descriptor == nil ? nil : Console.terminalHeight()
        if console.isTerminal && !options.json {
            terminal = TerminalView(
                library: daemon.library, scheduler: scheduler,
                renderer: TerminalRenderer(width: console.width, height: screenHeight, ansi: true), write: write,
                delivered: delivered,
                onWriteError: writeFailed, downloads: downloads?.model ?? DownloadsViewModel())
        } else {
            lines = JSONLinesView(
                library: daemon.library, scheduler: scheduler, write: write, delivered: delivered,
                onWriteError: writeFailed)
        }

        // --http: the web dashboard, a second observer of the same library, on the same loop.
        var web: WebDashboard?
        if let address = options.http, let webMetrics {
            do {
                let dashboard = try WebDashboard(
                    loop: loop, scheduler: scheduler, store: store, daemon: daemon, address: address,
                    token: options.httpToken, publicOrigin: options.httpPublicOrigin, metrics: webMetrics,
                    offLoop: workers)
                web = dashboard
                console.err(
                    DaemonSession.dashboardBanner(
                        dashboard, tokenGiven: options.httpToken != nil, stderrIsTerminal: isatty(2) == 1,
                        tokenFile: (store.database.path as NSString).deletingLastPathComponent + "/http-token"))
            } catch {
                console.err("podcast-watch: cannot serve the dashboard: \(error)\n")
                exitCode = .addressUnavailable
                daemon.stop()
                loop.stop()
            }
        }
        defer { web?.close() }
        if let terminal {
            // A resized terminal gets a frame at its new width at once.
            if let winch = try? loop.onSignal(
                SIGWINCH,
                { [weak terminal] in
                    guard let terminal else { return }
                    // The real width: narrower frames are cut, not wrapped.
                    terminal.renderer.width = Console.terminalWidth()
                    if terminal.renderer.height != nil { terminal.renderer.height = Console.terminalHeight() }
                    terminal.updateView()
                })
            {
                registrations.append(winch)
            }
        }
        do {
            if !outputFailed { try loop.run() }
            if options.once && !failedDownloads.isEmpty && exitCode == .success { exitCode = .feedFailed }
        } catch {
            console.err("podcast-watch: event loop failed: \(error)\n")
            exitCode = .internalError
        }
        notifier.stoppingOnce()
        daemon.stop()
        // Stopped another way (a store or output error): hooks still running are killed now
        // and their attempts kept for the next start, never orphaned.
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
        fetcher.cancelAll()
        for registration in registrations { registration.cancel() }
        for timer in hookTimers.values { timer.cancel() }
        hookTimers.removeAll()
        // A last synchronous draw, so nothing reported stays unwritten (idempotent for JSON),
        // and what it shows is confirmed before the store closes.
        if !outputFailed {
            lines?.updateView()
            if daemon.undeliveredCount > 0 { terminal?.updateView() }
        }
        withExtendedLifetime(terminal) {}
        if stoppedBySignal || outputFailed {
            output?.close()  // what is still queued was never confirmed: it stays pending
        } else {
            output?.finishBlocking()
        }
        self.output = nil  // its closures hold this session
        return exitCode
    }

    /// Sets `runner.onTermination` to call `finished` with the runner once a hook ended, and
    /// `runner.onOutcome` to report failed attempts on `console` (one line each: the retry to
    /// come, or the final failure) and hand each final result to `record` (feed id, `nil` for
    /// success or the failure's text) for the store. The closures hold the runner weakly: the
    /// runner owns them, so a strong capture was a cycle that leaked one runner per session.
    ///
    /// `retries`: the store where an attempt still owed is kept (`.retrying`: the next attempt,
    /// due after its delay; `.interrupted`: the same attempt, due at once) and forgotten on the
    /// final result, so a stop loses no retry. `report`: each failed attempt as a `hook_failed`
    /// event (with the feed id), for the JSON lines. `retriesChanged`: the feed id after each
    /// change of what it owes (the live views show it). `now` is the wall clock.
    static func reportTerminations(
        of runner: HookRunner, to console: Console, record: ((Int64, String?) -> Void)? = nil,
        retries store: FeedStore? = nil, retriesChanged: ((Int64) -> Void)? = nil,
        report: ((FeedEvent, Int64?) -> Void)? = nil,
        now: @escaping () -> Date = Date.init, finished: @escaping (HookRunner) -> Void
    ) {
        // Best effort: a store that cannot be written costs the retry after a stop, not the run.
        func persist(_ episode: EpisodeAnnouncement, _ change: (FeedStore, Int64) throws -> Void) {
            guard let store, let id = episode.episodeID else { return }
            do {
                try change(store, id)
                if let feedID = episode.feedID { retriesChanged?(feedID) }
            } catch {
                console.err("podcast-watch: warning: cannot record the hook's retry in the state database: \(error)\n")
            }
        }
        runner.onOutcome = { [weak runner] episode, outcome in
            // Read at each outcome: a reload may have changed `hook-retries`.
            let attempts = (runner?.policy.retries ?? 0) + 1
            // Feed text: neutralised before it reaches a terminal or the journal.
            let name = TerminalText.line(episode.title ?? episode.url ?? "?")
            let time = now()
            func failure(_ error: String, attempt: Int, retryAt: Date?, gaveUp: Bool) {
                // An attempt begun under a higher limit than a reload left: never "attempt 3 of 1".
                report?(
                    .hookFailed(
                        HookFailureReport(
                            time: time, episode: episode, error: error, attempt: attempt,
                            attempts: max(attempts, attempt),
                            retryAt: retryAt, gaveUp: gaveUp)), episode.feedID)
            }
            switch outcome {
            case .succeeded:
                if let id = episode.feedID { record?(id, nil) }
                persist(episode) { try $0.clearHookRetry(episodeID: $1) }
            case .retrying(let how, let attempt, let delay):
                let when =
                    runner?.defersRetries == true
                    ? "the retry is kept for the next run (due in \(HookRunner.Policy.format(delay)) s)"
                    : "retrying in \(HookRunner.Policy.format(delay)) s"
                console.err(
                    "podcast-watch: hook \(how.description) for \"\(name)\" (attempt \(attempt) of \(attempts)); \(when)\n"
                )
                let due = time.addingTimeInterval(delay)
                persist(episode) {
                    try $0.saveHookRetry(
                        PendingHookRetry(
                            episodeID: $1, attempt: attempt + 1, due: due, lastError: how.description,
                            attempts: attempts))
                }
                failure(how.description, attempt: attempt, retryAt: due, gaveUp: false)
            case .failed(let how, let tried):
                console.err(
                    "podcast-watch: hook \(how.description) for \"\(name)\"\(tried > 1 ? "; gave up after \(tried) attempts" : "")\n"
                )
                if let id = episode.feedID {
                    record?(id, "\(how.description) for \"\(name)\"\(tried > 1 ? " (\(tried) attempts)" : "")")
                }
                persist(episode) { try $0.clearHookRetry(episodeID: $1) }
                failure(how.description, attempt: tried, retryAt: nil, gaveUp: true)
            case .gaveUp(let lastError, let tried):
                console.err(
                    "podcast-watch: hook \(lastError) for \"\(name)\"; gave up after \(tried) attempt\(tried == 1 ? "" : "s") (hook-retries is now \(attempts - 1))\n"
                )
                if let id = episode.feedID { record?(id, "\(lastError) for \"\(name)\" (\(tried) attempts)") }
                persist(episode) { try $0.clearHookRetry(episodeID: $1) }
                failure(lastError, attempt: tried, retryAt: nil, gaveUp: true)
            case .interrupted(_, let attempt, let grace):
                let what =
                    grace.map { "still running at shutdown; killed after the \(HookRunner.Policy.format($0)) s grace" }
                    ?? "still running at shutdown; killed at a second signal"
                console.err(
                    "podcast-watch: warning: hook for \"\(name)\" was \(what) (attempt \(attempt) of \(attempts)); it runs again at the next start\n"
                )
                persist(episode) {
                    try $0.saveHookRetry(
                        PendingHookRetry(
                            episodeID: $1, attempt: attempt, due: time, lastError: what, attempts: attempts))
                }
                failure(what, attempt: attempt, retryAt: nil, gaveUp: false)
            }
        }
        runner.onTermination = { [weak runner] _, _ in
            if let runner { finished(runner) }
        }
    }

    /// The dashboard's start line. The token never goes to a log: one given by the operator is
    /// not repeated; a generated one is shown only when stderr is a terminal, else written to
    /// `tokenFile` (mode 0600, replaced at each start) and the line names that file.
    static func dashboardBanner(
        _ web: WebDashboard, tokenGiven: Bool, stderrIsTerminal: Bool, tokenFile: String
    ) -> String {
        let base = web.url
        guard let token = web.access.token else { return web.banner }
        if tokenGiven {
            return
                "podcast-watch: dashboard at \(base)\(web.listeningNote) (token required: the one --http-token or http-token gives)\n"
        }
        if stderrIsTerminal { return web.banner }
        let fd = open(tokenFile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        let written =
            fd >= 0 && fchmod(fd, 0o600) == 0
            && Array((token + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) == $0.count }
        let reason = String(cString: strerror(errno))
        if fd >= 0 { close(fd) }
        guard written else {
            return
                "podcast-watch: dashboard at \(base)\(web.listeningNote) (token required; cannot write it to \(tokenFile): \(reason); set http-token)\n"
        }
        return
            "podcast-watch: dashboard at \(base)\(web.listeningNote) (token required; it is in \(tokenFile): open \(base)?token=TOKEN once, or send 'Authorization: Bearer TOKEN')\n"
    }

    // download_failed on stderr as a warning (neutralised by `Console.err`: titles and error
    // texts come from feeds and servers), and the failures still standing for `--once`.
    private func noteDownload(_ event: DownloadEvent) {
        switch event.kind {
        case .finished: failedDownloads.remove(event.episodeID)
        case .failed:
            failedDownloads.insert(event.episodeID)
            console.err(DaemonSession.downloadFailureLine(event))
        case .started, .progress: break
        }
    }

    /// The stderr line of a `download_failed` event: what failed, why, and what follows (a retry
    /// at a UTC time, or nothing after the last attempt).
    static func downloadFailureLine(_ event: DownloadEvent) -> String {
        let name = [event.podcastTitle, event.episodeTitle].compactMap { $0 }.joined(separator: " — ")
        let what = name.isEmpty ? event.episodeURL : name
        let attempts = event.attempts ?? 1
        let next: String
        if let retry = event.nextRetry {
            next = "attempt \(attempts); retrying at \(ISO8601DateFormatter().string(from: retry))"
        } else {
            next = "gave up after \(attempts) attempt\(attempts == 1 ? "" : "s")"
        }
        return "podcast-watch: warning: download of \"\(what)\" failed: \(event.error ?? "unknown error") (\(next))\n"
    }

    /// What `run` says on stderr when it starts with no subscriptions: how to add one, and
    /// (without `--once`) how to make the running daemon pick it up.
    static func emptyHint(once: Bool, service: Bool, pid: pid_t) -> String {
        if once {
            return "podcast-watch: no subscriptions yet, nothing to poll; add one with 'podcast-watch add URL'\n"
        }
        let reload = service ? "systemctl reload podcast-watch (--user for a user unit)" : "kill -HUP \(pid)"
        return
            "podcast-watch: no subscriptions yet; add one with 'podcast-watch add URL', then send SIGHUP (\(reload)) to poll it\n"
    }

    // The live table's and the dashboard's rows show the hook attempts the store says are owed
    // (as `list` does): once at start and after a reload changed the limit.
    private func showOwedHookRetries(_ daemon: PodcastDaemon<LoopScheduler>) {
        guard let owed = try? store.pendingHookRetries() else { return }
        for feedID in Set(owed.map(\.episode.feedID)).sorted() { daemon.noteHookRetries(feedID: feedID) }
    }

    // Schedules the hook attempts an earlier run still owed, each at its due time (at once when
    // overdue). `--once` takes only those already due: a pass must not wait out a backoff
    // (the others stay in the store for a later run).
    private func resumeHookRetries(_ hooks: HookRunner) {
        do {
            let now = Date()
            for (retry, episode) in try store.pendingHookRetries() {
                let delay = max(0, retry.due.timeIntervalSince(now))
                if options.once && delay > 0 { continue }
                // Announced again at this start (the last run died before confirming it): that
                // starts a fresh series of the hook, so the owed attempt would be a second run.
                if episode.announcementPending { continue }
                guard let feed = try store.feed(id: episode.feedID) else { continue }
                hooks.resume(
                    EpisodeAnnouncement(stored: episode, feed: feed, time: episode.firstSeen), attempt: retry.attempt,
                    after: delay, lastError: retry.lastError)
            }
        } catch {
            console.err("podcast-watch: warning: cannot read the hook retries still owed: \(error)\n")
        }
    }

    // SIGHUP: the config file again. A file that cannot be read or parsed is refused whole (the
    // running options stay, and `run` goes on); otherwise what can change live is applied, and
    // each key that needs a restart is named once per reload, keeping its running value.
    private func reloadConfig(daemon: PodcastDaemon<LoopScheduler>, hooks: HookRunner?, downloads: DownloadQueue?) {
        guard let configReload else { return }
        let fresh: (options: RunOptions, stateDirectory: String?)
        do {
            fresh = try configReload.read()
        } catch {
            console.err(
                "podcast-watch: config file not reloaded (the running configuration stays): \(error.message)\n")
            return
        }
        var new = fresh.options
        new.downloadFallbackDirectory = options.downloadFallbackDirectory
        var changes = ConfigReload.changes(from: options, to: new)
        let runningState = (store.database.path as NSString).deletingLastPathComponent
        if let state = fresh.stateDirectory, !ConfigReload.sameStateDirectory(state, runningState) {
            changes.insert(ConfigReload.Change(key: "state", live: false), at: 0)
        }
        // No queue was made at start (no download folder at all): it cannot appear live.
        if downloads == nil, let i = changes.firstIndex(where: { $0.key == "download" }) { changes[i].live = false }
        var applied = options
        for change in changes where change.live {
            switch change.key {
            case "interval":
                applied.intervalSeconds = new.intervalSeconds
                daemon.setIntervalOverride(new.intervalSeconds)
            case "first-sync-announce":
                applied.firstSyncAnnounce = new.firstSyncAnnounce
                store.firstSyncAnnounceLimit = new.firstSyncAnnounce
            case "hook":
                applied.hook = new.hook
                if let command = new.hook { hooks?.command = command }
            case "hook-timeout", "hook-retries":
                applied.hookTimeoutSeconds = new.hookTimeoutSeconds
                applied.hookRetries = new.hookRetries
                if let hooks {
                    hooks.policy = DaemonSession.hookPolicy(applied)  // gives up owed attempts beyond it
                    do {
                        try store.setHookRetryLimit(applied.hookRetries + 1)
                        showOwedHookRetries(daemon)
                    } catch {
                        console.err("podcast-watch: warning: cannot record the new hook retry limit: \(error)\n")
                    }
                }
            case "hook-on":
                applied.hookOn = new.hookOn
                if let hooks {
                    daemon.hooks = new.hookOn.contains(.newEpisode) ? hooks : nil
                    if let downloads { DaemonSession.wireDownloadHooks(downloads, hooks: hooks, on: new.hookOn) }
                }
            case "download": applied.downloadDirectory = new.downloadDirectory
            case "download-name": applied.downloadName = new.downloadName
            case "download-jobs": applied.downloadJobs = new.downloadJobs
            case "download-per-host": applied.downloadPerHost = new.downloadPerHost
            case "download-rate": applied.downloadRate = new.downloadRate
            case "download-max-size": applied.downloadMaxSize = new.downloadMaxSize
            case "keep": applied.keep = new.keep
            default: break
            }
        }
        if let downloads, let settings = DaemonSession.downloadSettings(applied), settings != downloads.settings {
            downloads.update(settings: settings)
        }
        options = applied
        for change in changes where !change.live {
            console.err(
                "podcast-watch: warning: config file: '\(change.key)' changed; it takes effect at the next restart (systemctl restart podcast-watch), until then the running value stays\n"
            )
        }
        // Hook keys taken while no hook runs: kept for a hook added at a restart, but said so.
        let hookKeys: Set<String> = ["hook-on", "hook-timeout", "hook-retries"]
        let taken = changes.filter(\.live).map(\.key)
        let inert = hooks == nil ? taken.filter(hookKeys.contains) : []
        var info = stat()
        let noFile =
            stat(configReload.path, &info) != 0 || (info.st_mode & S_IFMT) == S_IFCHR
        let line = ConfigReload.summary(
            path: configReload.path, live: taken.filter { !inert.contains($0) }, inert: inert,
            restart: changes.filter { !$0.live }.map(\.key), noFile: noFile)
        console.err("podcast-watch: \(line)\n")
    }

    /// The hook runner's policy for `options` (`--hook-retries`, `--hook-timeout`).
    static func hookPolicy(_ options: RunOptions) -> HookRunner.Policy {
        HookRunner.Policy(
            retries: options.hookRetries, firstRetryDelay: HookRunner.Policy.daemonDefault.firstRetryDelay,
            timeout: Double(options.hookTimeoutSeconds))
    }

    /// The service manager's status line (`systemctl status`).
    static func status(_ feeds: Int) -> String {
        feeds == 0 ? "No subscriptions; add one and send SIGHUP" : "Polling \(feeds) feed\(feeds == 1 ? "" : "s")"
    }

    // In --once mode: stop when every feed was polled and no hook is running or queued.
    private func finishIfIdle(_ loop: EventLoop, hooks: HookRunner?) {
        guard finished else { return }
        if let output, output.pendingBytes > 0 || outputDeferred { return }  // --once ends with its output written
        if let hooks, hooks.runningCount + hooks.queuedCount + hooks.retryingCount > 0 { return }
        if let downloads, downloads.isBusy { return }  // --once downloads (and their retention) too
        loop.stop()
    }
}
