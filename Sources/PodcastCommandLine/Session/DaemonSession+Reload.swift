import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore
import PodcastWeb

#if canImport(Glibc)
import Glibc
#endif

extension DaemonSession {
    // SIGHUP: the config file again. A file that cannot be read or parsed is refused whole (the
    // running options stay, and `run` goes on); otherwise what can change live is applied, and
    // each key that needs a restart is named once per reload, keeping its running value.
    func reloadConfig(daemon: PodcastDaemon<LoopScheduler>, hooks: HookRunner?, downloads: DownloadQueue?) {
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
            apply(change.key, from: new, to: &applied, daemon: daemon, hooks: hooks, downloads: downloads)
        }
        if let downloads, let settings = DaemonSession.downloadSettings(applied), settings != downloads.settings {
            downloads.update(settings: settings)
        }
        options = applied
        reportReload(changes, path: configReload.path, hooks: hooks)
    }

    // One warning per key that needs a restart, then the summary line.
    private func reportReload(_ changes: [ConfigReload.Change], path: String, hooks: HookRunner?) {
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
            stat(path, &info) != 0 || (info.st_mode & S_IFMT) == S_IFCHR
        let line = ConfigReload.summary(
            path: path, live: taken.filter { !inert.contains($0) }, inert: inert,
            restart: changes.filter { !$0.live }.map(\.key), noFile: noFile)
        console.err("podcast-watch: \(line)\n")
    }

    // Applies one key that changes live: `options` takes the new value and the part it drives
    // (the daemon's interval, the store's first-sync limit, the hook runner, the download queue).
    private func apply(
        _ key: String, from new: RunOptions, to options: inout RunOptions, daemon: PodcastDaemon<LoopScheduler>,
        hooks: HookRunner?, downloads: DownloadQueue?
    ) {
        switch key {
        case "interval":
            options.intervalSeconds = new.intervalSeconds
            daemon.setIntervalOverride(new.intervalSeconds)
        case "first-sync-announce":
            options.firstSyncAnnounce = new.firstSyncAnnounce
            store.firstSyncAnnounceLimit = new.firstSyncAnnounce
        case "hook":
            options.hook = new.hook
            if let command = new.hook { hooks?.command = command }
        case "hook-timeout", "hook-retries":
            options.hookTimeoutSeconds = new.hookTimeoutSeconds
            options.hookRetries = new.hookRetries
            if let hooks {
                hooks.policy = DaemonSession.hookPolicy(options)  // gives up owed attempts beyond it
                do {
                    try store.setHookRetryLimit(options.hookRetries + 1)
                    showOwedHookRetries(daemon)
                } catch {
                    console.err("podcast-watch: warning: cannot record the new hook retry limit: \(error)\n")
                }
            }
        case "hook-on":
            options.hookOn = new.hookOn
            if let hooks {
                daemon.hooks = new.hookOn.contains(.newEpisode) ? hooks : nil
                if let downloads { DaemonSession.wireDownloadHooks(downloads, hooks: hooks, on: new.hookOn) }
            }
        case "download": options.downloadDirectory = new.downloadDirectory
        case "download-name": options.downloadName = new.downloadName
        case "download-jobs": options.downloadJobs = new.downloadJobs
        case "download-per-host": options.downloadPerHost = new.downloadPerHost
        case "download-rate": options.downloadRate = new.downloadRate
        case "download-max-size": options.downloadMaxSize = new.downloadMaxSize
        case "keep": options.keep = new.keep
        default: break
        }
    }
}
