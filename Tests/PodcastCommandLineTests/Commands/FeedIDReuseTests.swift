import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastStore

/// Feed ids are never reused after `remove`: schema v4's high-water mark.
@Suite struct FeedIDReuseTests {
    @Test func removedIDsStayRetired() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        #expect(try store.add(url: "http://a.example/1").id == 1)
        #expect(try store.add(url: "http://a.example/2").id == 2)
        try store.remove(id: 2)  // the newest: plain rowid allocation handed 2 out again
        #expect(try store.add(url: "http://a.example/3").id == 3)
        try store.remove(id: 1)
        try store.remove(id: 3)  // none left at all
        #expect(try store.add(url: "http://a.example/4").id == 4)
        #expect(try store.feeds().map(\.id) == [4])
    }

    /// The mark survives closing the file, and an old (v3) database starts it at its max id.
    @Test func versionThreeDatabaseUpgrades() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("v3.sqlite")
        do {
            let db = try Database(path: path)
            try db.migrate(Array(StoreSchema.migrations.prefix(3)))
            try db.execute(
                """
                INSERT INTO feeds (id, url, added) VALUES (1, 'https://a.example/f', 0);
                INSERT INTO feeds (id, url, added) VALUES (7, 'https://b.example/f', 0);
                INSERT INTO episodes (feed_id, identity, guid, first_seen, announced) VALUES (7, 'guid:x', 'x', 0, 1);
                """)
        }
        do {
            let store = try FeedStore(path: path)
            #expect(try store.database.userVersion == Int64(StoreSchema.migrations.count))
            try store.remove(id: 7)
            #expect(try store.add(url: "https://c.example/f").id == 8)
            try store.remove(id: 8)
        }
        let reopened = try FeedStore(path: path)
        #expect(try reopened.add(url: "https://d.example/f").id == 9)
        #expect(try reopened.feeds().map(\.id) == [1, 9])
        #expect(try reopened.feeds().map(\.hookError) == [nil, nil])
    }

    /// Through the CLI, as scripts see it.
    @Test func cliNeverHandsOutARemovedNumber() {
        let state = temporaryDirectory()
        func run(_ args: String...) -> String {
            let captured = CapturedConsole()
            _ = CommandRunner(
                console: captured.console(), environment: ["HOME": "/nonexistent-home"], currentDirectory: state
            ).run(["--state", state] + args)
            return captured.out
        }
        #expect(
            run("add", "--no-check", "http://a.example/1")
                == "Subscribed to http://a.example/1 (feed #1, default interval)\n")
        #expect(run("remove", "--id", "1") == "Unsubscribed from http://a.example/1 (http://a.example/1)\n")
        #expect(
            run("add", "--no-check", "http://a.example/1")
                == "Subscribed to http://a.example/1 (feed #2, default interval)\n")
    }
}
