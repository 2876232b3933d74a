import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// One 9.9 MB feed stored 180,754 episodes in 17.5 s at 266 MB. A poll keeps at
/// most `maxEpisodesPerPoll` items, the newest, and says so once.
@Suite struct EpisodeCapTests {
    @Test func aPollKeepsTheNewestItemsUpToTheCapAndWarnsOnce() throws {
        let dir = TemporaryDirectory("cap")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        let feed = try store.add(url: "http://h/big")
        var configuration = PodcastDaemon<ManualScheduler>.Configuration()
        configuration.maxEpisodesPerPoll = 3
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, configuration: configuration,
            random: noJitter)
        var warnings: [String] = []
        daemon.onWarning = { warnings.append($0) }
        try daemon.start()
        // Document order is not date order: g9 is the newest, g1 the oldest.
        fetcher.respond("http://h/big", ok("http://h/big", "g2,g9,g1,g5,g7,g3"))
        #expect(Set(try store.episodes(feedID: feed.id).compactMap(\.guid)) == ["g9", "g7", "g5"])
        #expect(
            warnings == [
                "Show of http://h/big <http://h/big>: the feed lists 6 items; kept the newest 3 (the per-poll cap)"
            ])
        scheduler.advance(by: 3600)
        fetcher.respond("http://h/big", ok("http://h/big", "g2,g9,g1,g5,g7,g3"))
        #expect(warnings.count == 1)  // reported when it appears, not on every poll
        daemon.stop()
    }

    @Test func cappingKeepsDocumentOrderAndUndatedItemsCountAsOldest() {
        let episodes = [
            Episode(guid: "a"), Episode(guid: "b", published: Date(timeIntervalSince1970: 10)),
            Episode(guid: "c"), Episode(guid: "d", published: Date(timeIntervalSince1970: 5)),
        ]
        let feed = ParsedFeed(format: .rss, channel: Channel(title: "t"), episodes: episodes)
        #expect(PodcastDaemon<ManualScheduler>.capped(feed, to: 3).episodes.map(\.guid) == ["a", "b", "d"])
        #expect(PodcastDaemon<ManualScheduler>.capped(feed, to: 4) == feed)
    }
}
