import Foundation
import Testing

@testable import PodcastKit

/// The live table shows a feed whose hook failed after its retries (issue 17).
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
