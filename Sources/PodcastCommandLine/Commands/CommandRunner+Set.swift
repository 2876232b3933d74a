import Foundation
import PodcastFeeds
import PodcastStore

extension CommandRunner {
    /// `set URL | --id N ...`: changes one feed's own download, retention and interval settings
    /// in one transaction, keeping its episodes, downloads and history (before, this took
    /// `remove` and `add`, which lost them). Says what the feed's settings are now; a running
    /// `run` reads them at its next SIGHUP. Exit status 1 when no such feed is subscribed.
    func setFeed(_ store: FeedStore?, _ key: FeedSelector, _ change: FeedSettingsChange) throws -> ExitCode {
        guard let feed = try feed(store, key), let store else { return .feedFailed }
        let ledger = DownloadLedger(store: store)
        var settings = try ledger.settings(feedID: feed.id)
        if let download = change.download { settings.download = download }
        if let keep = change.keep { settings.keep = keep }
        var interval = feed.intervalSeconds
        if let seconds = change.intervalSeconds { interval = seconds }
        try store.database.transaction {
            try ledger.setSettings(settings, feedID: feed.id)
            if interval != feed.intervalSeconds { try store.setInterval(seconds: interval, id: feed.id) }
        }
        // A never-polled feed has no title yet: its URL once, not twice.
        let url = "<\(TerminalText.line(MaskedURL.string(feed.url)))>"
        let name =
            feed.knownTitle.map { "feed #\(feed.id) \(TerminalText.line($0)) \(url)" } ?? "feed #\(feed.id) \(url)"
        console.out(
            "Updated \(name): \(CommandRunner.describe(settings)), \(CommandRunner.describeInterval(interval)); a running 'podcast-watch run' picks this up on SIGHUP\n"
        )
        return .success
    }

    /// "download on, keep 5": a feed's download settings as `set` and `add` take them.
    static func describe(_ settings: DownloadLedger.FeedSettings) -> String {
        let download = settings.download.map { $0 ? "download on" : "download off" } ?? "download as run says"
        let keep = settings.keep.map { "keep \($0)" } ?? "keep as run says"
        return "\(download), \(keep)"
    }
}
