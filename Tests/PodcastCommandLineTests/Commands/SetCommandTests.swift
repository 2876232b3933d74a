import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore

/// `set`: one feed's download, retention and interval settings change
/// in place, keeping its episodes and downloads (before, only remove + add could, losing them).
@Suite struct SetCommandTests {
    let state = temporaryDirectory()

    func run(_ args: String...) -> (ExitCode, String, String) { runCommand(state: state, args) }

    @Test func parses() throws {
        #expect(
            try CommandLineParser.parse(["set", "--id", "3", "--download", "--keep", "5"]).command
                == .set(key: .id(3), changes: FeedSettingsChange(download: .some(true), keep: .some(5))))
        #expect(
            try CommandLineParser.parse(["set", "http://a/f", "--download-default", "--keep", "default"]).command
                == .set(key: .url("http://a/f"), changes: FeedSettingsChange(download: .some(nil), keep: .some(nil))))
        #expect(
            try CommandLineParser.parse(["set", "--id", "1", "--interval", "15m"]).command
                == .set(key: .id(1), changes: FeedSettingsChange(intervalSeconds: .some(900))))
        #expect(
            try CommandLineParser.parse(["set", "--id", "1", "--interval", "default", "--no-download"]).command
                == .set(key: .id(1), changes: FeedSettingsChange(download: .some(false), intervalSeconds: .some(nil))))
        for bad in [
            ["set", "--id", "1"],  // nothing to change
            ["set", "--id", "1", "--download", "--no-download"],
            ["set", "--id", "1", "--keep", "0"],
            ["set", "--id", "1", "--keep", "5", "--keep", "6"],
            ["set", "--id", "1", "--interval", "40d"],
            ["set", "--id", "x", "--download"],
            ["set", "--download"],  // no feed
            ["set", "--id", "1", "http://a/f", "--download"],
            ["set", "--id", "1", "--download=yes"],
            ["set", "--id", "1", "--keep", "+5"],  // no sign, as --interval and every number option
            ["set", "--id", "+1", "--download"],
            ["run", "--hook-retries", "+2"],
        ] {
            #expect(throws: UsageError.self, "\(bad)") { try CommandLineParser.parse(bad) }
        }
        let (code, out, err) = run("set", "--id", "1", "--keep", "0")
        #expect(code == .usage)
        #expect(out == "")
        #expect(
            err.hasPrefix("podcast-watch: option '--keep' needs a whole number of files from 1 to 100000, not '0'\n"))
        #expect(err.contains("Usage: podcast-watch set URL | --id N\n"))
        #expect(run("set", "--help").1 == UsageText.set)
    }

    @Test func changesSettingsInPlaceAndKeepsTheFeedsHistory() throws {
        #expect(run("add", "--no-check", "http://a.example/f", "--no-download", "--keep", "2").0 == .success)
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        try store.database.run(
            "INSERT INTO episodes (feed_id, identity, title, first_seen) VALUES (1, 'guid:x', 'Kept', ?1)",
            .date(Date()))
        #expect(
            run("set", "--id", "1", "--download", "--keep", "5", "--interval", "15m")
                == (
                    .success,
                    "Updated feed #1 <http://a.example/f>: download on, keep 5, every 15 min; a running 'podcast-watch run' picks this up on SIGHUP\n",
                    ""
                ))
        #expect(try DownloadLedger(store: store).settings(feedID: 1) == .init(download: true, keep: 5))
        #expect(try store.feed(id: 1)?.intervalSeconds == 900)
        #expect(try store.episodeCount(feedID: 1) == 1)
        // Only what is given changes; `default` returns a setting to run's.
        #expect(
            run("set", "http://a.example/f", "--keep", "default").1
                == "Updated feed #1 <http://a.example/f>: download on, keep as run says, every 15 min; a running 'podcast-watch run' picks this up on SIGHUP\n"
        )
        #expect(
            run("set", "--id", "1", "--download-default", "--interval", "default").1
                == "Updated feed #1 <http://a.example/f>: download as run says, keep as run says, default interval; a running 'podcast-watch run' picks this up on SIGHUP\n"
        )
        #expect(try DownloadLedger(store: store).settings(feedID: 1) == .init())
        #expect(run("set", "--id", "1", "--interval", "30d").1.contains(", every 30 d; "))
        #expect(run("set", "--id", "1", "--interval", "36h").1.contains(", every 36 h; "))
        #expect(run("set", "--id", "1", "--interval", "90").1.contains(", every 90 s; "))
        try store.database.run("UPDATE feeds SET feed_title = 'Show' WHERE id = 1")
        #expect(
            run("set", "--id", "1", "--interval", "default").1.hasPrefix("Updated feed #1 Show <http://a.example/f>: "))
        #expect(try store.feed(id: 1)?.intervalSeconds == nil)
        #expect(run("list", "--json").1.contains("\"interval\":null"))
    }

    @Test func noSuchFeedIsStatusOne() {
        #expect(
            run("set", "--id", "7", "--download")
                == (.feedFailed, "", "podcast-watch: no feed #7 (see 'podcast-watch list')\n"))
        #expect(run("add", "--no-check", "http://a.example/f").0 == .success)
        #expect(
            run("set", "http://b.example/f", "--download")
                == (.feedFailed, "", "podcast-watch: not subscribed: http://b.example/f (see 'podcast-watch list')\n"))
    }

    /// A running daemon's SIGHUP reload reschedules a feed whose own interval `set` changed, as
    /// a restart would (before, the old interval stood until the next poll).
    @Test func reloadReschedulesAFeedWhoseIntervalChanged() throws {
        let store = try FeedStore(path: state + "/s.sqlite")
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        fetcher.autoRespond = { ok($0.url, "g1") }
        let feed = try store.add(url: "http://h/f")
        let start = Date(timeIntervalSince1970: 1_000_000)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            now: { start.addingTimeInterval(MonotonicInstant(nanoseconds: 0).distance(to: scheduler.now).seconds) },
            random: noJitter)
        try daemon.start()
        #expect(fetcher.requests.count == 1)
        scheduler.advance(by: 100)
        try store.setInterval(seconds: 600, id: feed.id)
        try daemon.reload()
        scheduler.advance(by: 599)
        #expect(fetcher.requests.count == 1)
        scheduler.advance(by: 1)  // 600 s from now: at most one new interval away
        #expect(fetcher.requests.count == 2)
        daemon.stop()
    }
}
