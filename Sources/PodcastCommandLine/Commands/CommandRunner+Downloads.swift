import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

extension CommandRunner {
    /// `downloads [--json]`: every download the store knows, newest queued first. Text: one
    /// block per download (state, bytes, path, error and next retry); JSON lines: `episode_id,
    /// feed_id, podcast_title, episode_title, url, path, state, bytes, total, attempts, error,
    /// next_retry, queued, finished, seconds`. Feed and server text is neutralised for the
    /// terminal.
    func downloads(_ store: FeedStore?, json: Bool) throws -> ExitCode {
        let records = try store.map { try DownloadLedger(store: $0).all() } ?? []
        for var r in records {
            r.bytes = r.bytesOnDisk
            if json {
                try emit(
                    OrderedJSON.object([
                        ("episode_id", .int(r.episodeID)), ("feed_id", .int(r.feedID)),
                        ("podcast_title", .string(r.podcastTitle)), ("episode_title", .string(r.episodeTitle)),
                        ("url", .string(MaskedURL.string(r.url))), ("path", .string(r.path)),
                        ("state", .string(r.state.rawValue)), ("bytes", .int(r.bytes)), ("total", .int(r.total)),
                        ("attempts", .int(r.attempts)), ("error", .string(r.error)),
                        ("next_retry", .date(r.nextRetry)), ("queued", .date(r.queued)),
                        ("finished", .date(r.finished)), ("seconds", .number(r.seconds)),
                    ]).serialized + "\n")
            } else {
                let title = TerminalText.line(r.episodeTitle ?? r.url)
                let podcast = TerminalText.line(r.podcastTitle ?? "feed #\(r.feedID)")
                var state = r.state.rawValue
                switch r.state {
                case .done, .deleted:
                    state += ", \(CommandRunner.byteCount(r.bytes))"
                    if let finished = r.finished { state += ", " + OrderedJSON.iso8601(finished) }
                case .pending, .downloading, .failed:
                    state += ", \(CommandRunner.byteCount(r.bytes))"
                    if let total = r.total { state += " of \(CommandRunner.byteCount(total))" }
                }
                try emit("\(r.episodeID)  \(podcast): \(title)\n    \(state)\n    \(TerminalText.line(r.path))\n")
                if r.state == .failed, let error = r.error {
                    let retry = r.nextRetry.map { "next attempt " + OrderedJSON.iso8601($0) } ?? "no further attempt"
                    try emit("    failed \(r.attempts)×: \(TerminalText.line(error)); \(retry)\n")
                }
            }
        }
        if records.isEmpty && !json {
            console.err("No downloads. Start with: podcast-watch run --download DIR (or add --download URL)\n")
        }
        try console.flush()
        return .success
    }

    /// `list --json`'s download members of one feed: `download` (the feed's own setting or
    /// null), `keep`, and `downloads` (counts by state); `nil` (no members, the object as before
    /// downloads existed) for a feed without download settings or downloads.
    static func downloadMembers(_ store: FeedStore, feedID: Int64) -> [(String, OrderedJSON)]? {
        let ledger = DownloadLedger(store: store)
        let settings = (try? ledger.settings(feedID: feedID)) ?? .init()
        let counts = downloadCounts(store, feedID: feedID)
        guard !counts.isEmpty || settings != .init() else { return nil }
        return [
            ("download", .bool(settings.download)), ("keep", .int(settings.keep)),
            ("downloads", .object(DownloadRecord.State.allCases.map { ($0.rawValue, .int(counts[$0] ?? 0)) })),
        ]
    }

    /// `list`'s download line of one feed, or `nil` when it has no downloads and no settings.
    static func downloadLine(_ store: FeedStore, feedID: Int64) -> String? {
        let settings = (try? DownloadLedger(store: store).settings(feedID: feedID)) ?? .init()
        let counts = downloadCounts(store, feedID: feedID)
        guard !counts.isEmpty || settings != .init() else { return nil }
        var parts = DownloadRecord.State.allCases.compactMap { state in counts[state].map { "\($0) \(state.rawValue)" }
        }
        if parts.isEmpty { parts = ["none yet"] }
        var line = "    downloads: " + parts.joined(separator: ", ")
        if let download = settings.download { line += download ? " (always downloaded)" : " (never downloaded)" }
        if let keep = settings.keep { line += ", keeps \(keep)" }
        return line + "\n"
    }

    private static func downloadCounts(_ store: FeedStore, feedID: Int64) -> [DownloadRecord.State: Int] {
        guard
            let statement = try? store.database.prepare(
                "SELECT state, count(*) FROM downloads WHERE feed_id = ?1 GROUP BY state", .integer(feedID))
        else { return [:] }
        var counts: [DownloadRecord.State: Int] = [:]
        while (try? statement.step()) == true {
            if let state = statement.string(0).flatMap(DownloadRecord.State.init) {
                counts[state] = statement.int(1) ?? 0
            }
        }
        return counts
    }

    /// "1.5 MB" (powers of 1000, one decimal), "532 B".
    static func byteCount(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
