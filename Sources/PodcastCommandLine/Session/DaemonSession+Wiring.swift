import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

// The steps of `run()` that connect the parts: the hook runner, the daemon's callbacks and the
// download queue, and the signal handlers.
extension DaemonSession {
    // `--hook`: the runner, its timers on the loop, its output (a log while the live table is
    // on, else neutralised lines on stderr) and what its outcomes report. `nil`, or exit status
    // 2 for a hook log that cannot be opened.
    func makeHooks(_ parts: Parts) -> ExitCode? {
        guard let command = options.hook else { return nil }
        let loop = parts.loop
        let daemon = parts.daemon
        let runner = HookRunner(command: command, policy: DaemonSession.hookPolicy(options))
        // `--once` waits out no backoff: a failed attempt's retry is kept for the next run.
        runner.defersRetries = options.once
        runner.after = { seconds, action in
            self.hookTimerSerial += 1
            let key = self.hookTimerSerial
            self.hookTimers[key] = loop.scheduleTimer(after: .milliseconds(Int(seconds * 1000))) {
                self.hookTimers[key] = nil
                action()
            }
        }
        // Hooks write to the terminal the live table redraws: their output goes to a log.
        let logPath = options.hookLog ?? (console.isTerminal && !options.json ? hookLogDefault : nil)
        if let logPath {
            hookLogFD = open(logPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o600)
            // A path that cannot be opened (a folder that does not exist, no permission) is a
            // configuration error, exit 2: restarting would not heal it, and the units do not
            // restart on 2. The folder is not created: a typo should not make folders.
            guard hookLogFD >= 0 else {
                let reason = String(cString: strerror(errno))
                let hint = errno == ENOENT ? " (its folder must exist)" : ""
                console.err("podcast-watch: cannot open the hook log \(logPath): \(reason)\(hint)\n")
                return .usage
            }
            runner.outputFD = hookLogFD
        } else {
            // Straight to stderr, hooks' output was raw: feed text echoed by a hook carried escape
            // sequences, and the journal got no level prefix.
            runner.outputRelay = .standard
        }
        DaemonSession.reportTerminations(
            of: runner, to: console,
            record: { [weak daemon] id, error in daemon?.noteHookOutcome(feedID: id, error: error) },
            retries: store,
            retriesChanged: { [weak daemon] id in daemon?.noteHookRetries(feedID: id) },
            report: { [weak daemon] event, feedID in _ = daemon?.library.record(event, feedID: feedID) },
            finished: { _ in self.finishIfIdle(loop) })
        if options.hookOn.contains(.newEpisode) { daemon.hooks = runner }
        hooks = runner
        return nil
    }

    // Warnings, downloads (same loop, same fetcher, their own queue and store table), the
    // crash-test failpoint, a fatal store error, and the end of a `--once` pass.
    func wireDaemon(_ parts: Parts) {
        let loop = parts.loop
        let daemon = parts.daemon
        let console = self.console
        daemon.onWarning = { console.err("podcast-watch: warning: \($0)\n") }
        downloads = DaemonSession.makeDownloads(
            options: options, store: store, fetcher: parts.fetcher, loop: loop, daemon: daemon, hooks: hooks,
            console: console)
        if let downloads {
            downloads.onIdle = { self.finishIfIdle(loop) }
            // A failed download is a warning on stderr too (the journal's `-p warning` shows it,
            // not only the JSON line); one still failed at the end of `--once` makes the status 1.
            let recordEvent = downloads.onEvent
            downloads.onEvent = { event in
                recordEvent?(event)
                self.noteDownload(event)
            }
        }
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
            self.phase = .passFinished
            self.finishIfIdle(loop)
        }
    }

    // SIGINT/SIGTERM stop, SIGHUP reloads, SIGUSR1 polls now, SIGCHLD reaps hooks; the
    // watchdog is petted from the loop, so a loop stuck for WATCHDOG_USEC gets the service
    // restarted.
    func installSignalHandlers(_ parts: Parts) throws {
        let loop = parts.loop
        let daemon = parts.daemon
        registrations.append(try loop.onSignal(SIGINT) { [weak daemon] in self.stop(SIGINT, daemon, loop) })
        registrations.append(try loop.onSignal(SIGTERM) { [weak daemon] in self.stop(SIGTERM, daemon, loop) })
        registrations.append(try loop.onSignal(SIGHUP) { [weak daemon] in self.reload(daemon) })
        if let interval = notifier.watchdogInterval {
            let notifier = self.notifier
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
    }

    // SIGINT/SIGTERM. A --once pass cut short did not poll every feed: that is not success
    // (130 / 143). Running hooks get a grace, then their groups are killed and their attempts are
    // kept for the next start; a second signal kills them at once.
    private func stop(_ signal: Int32, _ daemon: PodcastDaemon<LoopScheduler>?, _ loop: EventLoop) {
        notifier.stoppingOnce()
        let announced: Bool
        if case .stopping(let already) = phase { announced = already } else { announced = false }
        if options.once && phase == .running && exitCode == .success {
            exitCode = signal == SIGINT ? .interrupted : .terminated
        }
        phase = .stopping(announcedHookWait: announced)
        daemon?.stop()
        guard let hooks else {
            loop.stop()
            return
        }
        if hooks.runningCount > 0 && !announced {
            phase = .stopping(announcedHookWait: true)
            let n = hooks.runningCount
            console.err(
                "podcast-watch: stopping: waiting up to \(HookRunner.Policy.format(HookRunner.shutdownGrace)) s for \(n) running hook\(n == 1 ? "" : "s") (signal again to kill \(n == 1 ? "it" : "them") now)\n"
            )
        }
        hooks.shutDown { loop.stop() }
    }

    // SIGHUP: the config file, then the subscriptions, then the download settings.
    private func reload(_ daemon: PodcastDaemon<LoopScheduler>?) {
        // Stopping (a hook's grace): a config applied now would only confuse the stop.
        if phase.isStopping {
            console.err("podcast-watch: stopping: SIGHUP ignored (no reload while stopping)\n")
            return
        }
        notifier.reloading()
        if let daemon { reloadConfig(daemon: daemon, hooks: hooks, downloads: downloads) }
        do { try daemon?.reload() } catch { console.err("podcast-watch: reload failed: \(error)\n") }
        downloads?.reloadSettings()
        notifier.ready(status: DaemonSession.status(daemon?.library.count ?? 0))
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
}
