import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore
@testable import PodcastWeb

/// The live table shows a feed whose hook failed after its retries.
@Suite struct HookFailingViewTests {
    @Test func headerCountsAndTheFeedSaysWhy() {
        let r = TerminalRenderer(width: 60, ansi: false, timeZone: TimeZone(identifier: "UTC")!)
        var alpha = Podcast(
            id: 1, url: "http://a/f", title: "Alpha", status: .ok, lastCheck: Date(timeIntervalSince1970: 3723),
            newCount: 1)
        alpha.hookError = "exited with status 1 for \"Ep\u{1B}[2J\" (4 attempts)"
        let beta = Podcast(
            id: 2, url: "http://b/f", title: "Beta", status: .ok, lastCheck: Date(timeIntervalSince1970: 3723))
        let expected = """
            podcast-watch: 2 feeds, 1 new, 1 hook failing

            TITLE                           CHECKED   STATUS         NEW
            Alpha                           01:02:03  ok               1
              ! hook exited with status 1 for "Ep␛[2J" (4 attempts)
            Beta                            01:02:03  ok               0

            Newest episodes
              (none yet)

            """
        #expect(r.render(podcasts: [alpha, beta], newest: [], totalNew: 1) == expected)
    }
}

/// The daemon records a hook's outcome in the store and in the library the views observe.
@Suite struct HookOutcomeLibraryTests {
    @Test func outcomeReachesStoreAndLibrary() throws {
        let dir = TemporaryDirectory("hook-library")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        let feed = try store.add(url: "http://h/a")
        let daemon = PodcastDaemon(
            store: store, fetcher: ScriptedFetcher(), parse: parseGuids, scheduler: ManualScheduler(),
            configuration: .init(), random: noJitter)
        try daemon.start()
        daemon.noteHookOutcome(feedID: feed.id, error: "exited with status 1 for \"x\"")
        #expect(daemon.library.podcast(id: feed.id)?.hookError == "exited with status 1 for \"x\"")
        #expect(try store.feed(id: feed.id)?.hookError == "exited with status 1 for \"x\"")
        daemon.noteHookOutcome(feedID: feed.id, error: nil)
        #expect(daemon.library.podcast(id: feed.id)?.hookError == nil)
        #expect(try store.feed(id: feed.id)?.hookError == nil)
        daemon.noteHookOutcome(feedID: 99, error: "gone")  // a removed feed: ignored
        daemon.stop()
    }
}

/// Hook attempts still owed (a retry waiting out its backoff) show in the live table and on the
/// dashboard as `list` shows them, from the store, kept current as they are recorded and
/// forgotten.
@Suite struct OwedHookRetryViewTests {
    @Test func owedRetriesReachTheLibraryTheTableAndTheDashboard() throws {
        let web = try WebFixture()
        let store = web.store
        let daemon = web.daemon
        let ids = try store.episodes(feedID: 1).map(\.id).sorted()
        #expect(ids.count == 2)
        let due = Date(timeIntervalSince1970: 1_700_000_060)  // 22:14:20 UTC
        let errors = CapturedConsole()
        let runner = HookRunner(command: "true", policy: .init(retries: 3))
        var changed: [Int64] = []
        DaemonSession.reportTerminations(
            of: runner, to: errors.console(), retries: store,
            retriesChanged: {
                changed.append($0)
                daemon.noteHookRetries(feedID: $0)
            }, now: { due.addingTimeInterval(-15) }, finished: { _ in })
        func announced(_ id: Int64) -> EpisodeAnnouncement {
            var a = EpisodeAnnouncement(
                time: WebFixture.now, feedURL: "http://h/a", podcastTitle: "A", title: "T\u{1B}[2J", guid: nil, url: nil
            )
            a.feedID = 1
            a.episodeID = id
            return a
        }
        runner.onOutcome?(announced(ids[0]), .retrying(.exited(3), attempt: 1, delay: 15))
        #expect(changed == [1])
        var row = try #require(daemon.library.podcast(id: 1))
        #expect(
            row.hookRetry
                == PendingHookRetry(
                    episodeID: ids[0], attempt: 2, due: due, lastError: "exited with status 3", attempts: 4))
        #expect(row.hookRetriesOwed == 1)

        runner.onOutcome?(announced(ids[1]), .retrying(.exited(3), attempt: 2, delay: 30))
        row = try #require(daemon.library.podcast(id: 1))
        #expect(row.hookRetry?.episodeID == ids[0])  // the soonest
        #expect(row.hookRetriesOwed == 2)

        // The live table: under the feed, neutralised, in the table's time zone.
        let table = TerminalRenderer(width: 100, ansi: false, timeZone: TimeZone(identifier: "UTC")!)
            .render(podcasts: daemon.library.snapshots, newest: [], totalNew: 0)
        #expect(table.contains("1 hook failing"))
        #expect(table.contains("\n  ! hook retry 2/4 at 22:14:20: exited with status 3 (2 episodes owe one)\n"))
        // The dashboard: the JSON of /api/feeds and the event stream, and the page's row.
        let feed = jsonObject(web.send("GET", "/api/feeds/1").text)["feed"] as? [String: Any]
        let retry = try #require(feed?["hook_retry"] as? [String: Any])
        #expect(retry["attempt"] as? Int == 2)
        #expect(retry["attempts"] as? Int == 4)
        #expect(retry["due"] as? String == "2023-11-14T22:14:20.000Z")
        #expect(retry["error"] as? String == "exited with status 3")
        #expect(retry["pending"] as? Int == 2)
        #expect(
            DashboardPage.row(row, episodes: 2, csrf: "c").contains(
                "<small class=\"hook\">hook retry 2/4 due 2023-11-14 22:14 UTC: exited with status 3 (2 episodes owe one)</small>"
            ))

        // Both settle: nothing owed any more, everywhere.
        runner.onOutcome?(announced(ids[0]), .succeeded(attempts: 2))
        runner.onOutcome?(announced(ids[1]), .gaveUp(lastError: "exited with status 3", attempts: 3))
        row = try #require(daemon.library.podcast(id: 1))
        #expect(row.hookRetry == nil)
        #expect(row.hookRetriesOwed == 0)
        #expect(
            jsonObject(web.send("GET", "/api/feeds/1").text)["feed"].flatMap { ($0 as? [String: Any])?["hook_retry"] }
                is NSNull)
        #expect(changed == [1, 1, 1, 1])
    }

    /// A poll's new snapshot of the feed keeps what it owes (the store's row has no such field).
    @Test func aPollKeepsTheOwedRetryOnTheRow() throws {
        let web = try WebFixture()
        let id = try #require(try web.store.episodes(feedID: 1).first?.id)
        try web.store.saveHookRetry(
            PendingHookRetry(episodeID: id, attempt: 2, due: WebFixture.now, lastError: "x", attempts: 3))
        web.daemon.noteHookRetries(feedID: 1)
        #expect(web.daemon.library.podcast(id: 1)?.hookRetriesOwed == 1)
        #expect(web.daemon.pollNow(id: 1))
        web.fetcher.respond("http://h/a", ok("http://h/a", "g1,g2,g3"))
        #expect(web.daemon.library.podcast(id: 1)?.status == .ok)
        #expect(web.daemon.library.podcast(id: 1)?.hookRetry?.attempt == 2)
        #expect(web.daemon.library.podcast(id: 1)?.hookRetriesOwed == 1)
    }
}
