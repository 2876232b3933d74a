import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore

extension DaemonSession {
    /// `run`'s download queue, wired to the daemon: announcements queue downloads, download
    /// events go into the library's journal (JSON lines, and the terminal's bars through the
    /// queue's model), warnings to stderr, completions to the hook when `--hook-on` includes
    /// `downloaded`. `nil` when there is no directory at all (no `--download` and no fallback).
    static func makeDownloads(
        options: RunOptions, store: FeedStore, fetcher: HTTPFetcher, loop: EventLoop,
        daemon: PodcastDaemon<LoopScheduler>, hooks: HookRunner?, console: Console
    ) -> DownloadQueue? {
        guard let settings = downloadSettings(options) else { return nil }
        let queue = DownloadQueue(store: store, fetcher: fetcher, settings: settings, loop: loop)
        daemon.onAnnounced = { [weak queue] episode, id in queue?.announced(episode, episodeID: id) }
        queue.onEvent = { [weak daemon] event in _ = daemon?.library.record(.download(event), feedID: nil) }
        queue.onWarning = { console.err("podcast-watch: warning: \($0)\n") }
        if let hooks { wireDownloadHooks(queue, hooks: hooks, on: options.hookOn) }
        return queue
    }

    /// The queue's settings for `options`; `nil` when there is no directory at all.
    static func downloadSettings(_ options: RunOptions) -> DownloadSettings? {
        guard let directory = options.downloadDirectory ?? options.downloadFallbackDirectory else { return nil }
        let naming = (try? DownloadNaming(template: options.downloadName)) ?? .standard
        var settings = DownloadSettings(
            directory: directory, allFeeds: options.downloadDirectory != nil, naming: naming,
            maxConcurrent: options.downloadJobs, maxPerHost: options.downloadPerHost,
            bytesPerSecond: options.downloadRate, keep: options.keep)
        settings.maxFileBytes = options.downloadMaxSize
        return settings
    }

    /// Runs `hooks` on each completed download when `events` includes `downloaded` (else none).
    static func wireDownloadHooks(_ queue: DownloadQueue, hooks: HookRunner, on events: Set<RunOptions.HookEvent>) {
        guard events.contains(.downloaded) else {
            queue.onDownloaded = nil
            return
        }
        queue.onDownloaded = { [weak hooks, weak queue] record in
            guard let hooks, let queue else { return }
            hooks.run(for: queue.announcement(for: record))
        }
    }
}
