import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds
@testable import PodcastStore

/// The "announcement pending" state: set in the transaction that stores an announced episode,
/// cleared by `markAnnouncementsDelivered`, listed by `pendingAnnouncements` for a restart.
@Suite struct AnnouncementPendingTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func episode(_ n: Int, day: Int?) -> Episode {
        Episode(guid: "g\(n)", title: "Episode \(n)", published: day.map { t0.addingTimeInterval(Double($0) * 86_400) })
    }

    func fetched(_ id: Int64, _ episodes: [Episode]) -> FeedUpdate {
        FeedUpdate(
            feedID: id,
            outcome: .fetched(
                ParsedFeed(format: .rss, channel: Channel(title: "Show"), episodes: episodes), etag: nil,
                lastModified: nil), checkedAt: t0)
    }

    @Test func applyMarksAnnouncedEpisodesPendingUntilDelivered() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let a = try store.add(url: "https://a.example/feed.xml")
        let b = try store.add(url: "https://b.example/feed.xml")
        // First sync of a: five stored, the newest three announced (pending); two silent.
        let ra = try store.apply(
            update: fetched(
                a.id,
                [episode(1, day: 1), episode(2, day: 2), episode(3, day: 3), episode(4, day: 4), episode(5, day: 5)]))
        #expect(ra.announced.map(\.guid) == ["g5", "g4", "g3"])
        #expect(ra.announced.map(\.announcementPending) == [true, true, true])
        #expect(ra.newEpisodes.map(\.announcementPending) == [false, false, true, true, true])
        // b: two dated, one undated; reported order is undated first, then oldest date first.
        let rb = try store.apply(update: fetched(b.id, [episode(7, day: 7), episode(8, day: nil), episode(6, day: 6)]))
        #expect(rb.announced.map(\.guid) == ["g7", "g6", "g8"])

        #expect(try store.pendingAnnouncements().map(\.guid) == ["g3", "g4", "g5", "g8", "g6", "g7"])
        #expect(try store.episodes(feedID: a.id).map(\.announcementPending) == [true, true, true, false, false])

        try store.markAnnouncementsDelivered(ra.announced.map(\.id) + [999])  // unknown ids are ignored
        #expect(try store.pendingAnnouncements().map(\.guid) == ["g8", "g6", "g7"])
        try store.markAnnouncementsDelivered([])
        try store.markAnnouncementsDelivered(rb.announced.map(\.id))
        #expect(try store.pendingAnnouncements().isEmpty)
        #expect(try store.episodes(feedID: a.id).map(\.announced) == [true, true, true, false, false])  // unchanged
    }

    @Test func pendingStateSurvivesReopen() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("s.sqlite")
        do {
            let store = try FeedStore(path: path)
            let f = try store.add(url: "https://a.example/feed.xml")
            try store.apply(update: fetched(f.id, [episode(1, day: 1)]))
        }  // "killed" before delivery
        let store = try FeedStore(path: path)
        #expect(try store.pendingAnnouncements().map(\.guid) == ["g1"])
    }

    @Test func versionOneDatabaseUpgradesWithEverythingDelivered() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("old.sqlite")
        do {
            // A file written by the first schema: one feed, one announced and one silent episode.
            let db = try Database(path: path)
            try db.migrate(Array(StoreSchema.migrations.prefix(1)))
            try db.execute(
                """
                INSERT INTO feeds (id, url, added, interval_seconds) VALUES (1, 'https://a.example/f', 0, 3600);
                INSERT INTO episodes (feed_id, identity, guid, first_seen, announced) VALUES (1, 'guid:x', 'x', 0, 1);
                INSERT INTO episodes (feed_id, identity, guid, first_seen, announced) VALUES (1, 'guid:y', 'y', 0, 0);
                """)
            #expect(try db.userVersion == 1)
        }
        let store = try FeedStore(path: path)
        #expect(try store.database.userVersion == StoreSchema.migrations.count)
        #expect(try store.episodes(feedID: 1).map(\.guid) == ["x", "y"])
        #expect(try store.episodes(feedID: 1).map(\.announced) == [true, false])
        #expect(try store.pendingAnnouncements().isEmpty)
        #expect(try store.database.scalarString("PRAGMA integrity_check") == "ok")
    }
}
