import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastStore

/// Schema v3: a NULL interval means "the default"; version 2 files upgrade cleanly.
@Suite struct IntervalMigrationTests {
    @Test func versionTwoDatabaseUpgradesDefaultIntervalsToNull() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v2.sqlite")
        do {
            let db = try Database(path: path)
            try db.migrate(Array(StoreSchema.migrations.prefix(2)))
            try db.execute(
                """
                INSERT INTO feeds (id, url, added) VALUES (1, 'https://a.example/f', 0);
                INSERT INTO feeds (id, url, added, interval_seconds, etag) VALUES (2, 'https://b.example/f', 0, 600, '"e"');
                INSERT INTO episodes (feed_id, identity, guid, first_seen, announced) VALUES (2, 'guid:x', 'x', 0, 1);
                """)
        }
        let store = try FeedStore(path: path)
        #expect(try store.database.userVersion == StoreSchema.migrations.count)
        #expect(try store.feeds().map(\.intervalSeconds) == [nil, 600])
        #expect(try store.feeds().map(\.etag) == [nil, "\"e\""])
        #expect(try store.episodes(feedID: 2).map(\.guid) == ["x"])  // no cascade from the column swap
        #expect(try store.database.scalarInt("PRAGMA foreign_key_check") == nil)
        #expect(throws: StoreError.self) {
            try store.database.run("UPDATE feeds SET interval_seconds = 0 WHERE id = 1")
        }
    }
}
