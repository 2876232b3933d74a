import Foundation
import Testing
@testable import PodcastKit

@Suite struct FeedStoreSubscriptionTests {
    @Test func addListRemove() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let added = Date(timeIntervalSince1970: 1_000)
        let a = try store.add(url: " https://a.example/feed.xml ", title: "A", added: added)
        let b = try store.add(url: "HTTP://b.example/rss", intervalSeconds: 600, added: added)
        #expect(a.id == 1)
        #expect(a.url == "https://a.example/feed.xml")
        #expect(a.title == "A")
        #expect(a.added == added)
        #expect(a.intervalSeconds == 3600)
        #expect(a.enabled)
        #expect(a.status == .ok)
        #expect(b.url == "http://b.example/rss")
        #expect(b.intervalSeconds == 600)
        #expect(b.displayTitle == "http://b.example/rss")
        #expect(try store.feeds().map(\.id) == [1, 2])

        #expect(try store.remove("https://a.example/feed.xml").id == 1)
        #expect(try store.feeds().map(\.id) == [2])
        #expect(try store.remove("2").url == "http://b.example/rss")
        #expect(try store.feeds().isEmpty)
        #expect(throws: StoreError.noSuchFeed("7")) { try store.remove("7") }
    }

    @Test func duplicateSubscriptionIsRefused() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        try store.add(url: "https://a.example/feed.xml")
        #expect(throws: StoreError.alreadySubscribed(url: "https://a.example/feed.xml", id: 1)) {
            try store.add(url: "https://a.example/feed.xml")
        }
        #expect(try store.feeds().count == 1)
    }

    @Test func urlNormalization() throws {
        #expect(try FeedStore.normalizeURL("feed://x.org/rss") == "http://x.org/rss")
        #expect(try FeedStore.normalizeURL("feed:https://x.org/rss") == "https://x.org/rss")
        #expect(try FeedStore.normalizeURL("itpc://x.org/rss") == "http://x.org/rss")
        #expect(try FeedStore.normalizeURL("file:///tmp/a.xml") == "file:///tmp/a.xml")
        #expect(try FeedStore.normalizeURL("/tmp/./feeds/../a.xml") == "/tmp/a.xml")
        let cwd = FileManager.default.currentDirectoryPath
        #expect(try FeedStore.normalizeURL("a.xml") == URL(fileURLWithPath: cwd + "/a.xml").standardizedFileURL.path)
        #expect(throws: StoreError.invalidURL("", reason: "empty")) { try FeedStore.normalizeURL("") }
        #expect(throws: StoreError.invalidURL("ftp://x/y", reason: "unsupported scheme \"ftp\" (use http, https, file or a path)")) {
            try FeedStore.normalizeURL("ftp://x/y")
        }
        #expect(throws: StoreError.invalidURL("https://", reason: "no host")) { try FeedStore.normalizeURL("https://") }
    }

    @Test func lookupsAndSettings() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let feed = try store.add(url: "https://a.example/feed.xml")
        #expect(try store.feed(id: feed.id)?.url == feed.url)
        #expect(try store.feed(url: feed.url)?.id == feed.id)
        #expect(try store.feed(matching: "1")?.id == feed.id)
        #expect(try store.feed(matching: "https://nope.example/") == nil)
        try store.setEnabled(false, id: feed.id)
        try store.setInterval(seconds: 120, id: feed.id)
        let next = Date(timeIntervalSince1970: 5_000)
        try store.setNextPoll(next, id: feed.id)
        let after = try #require(try store.feed(id: feed.id))
        #expect(after.enabled == false)
        #expect(after.intervalSeconds == 120)
        #expect(after.nextPoll == next)
        #expect(throws: StoreError.noSuchFeed("9")) { try store.setEnabled(true, id: 9) }
    }

    @Test func stateSurvivesReopen() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("s.sqlite")
        do {
            let store = try FeedStore(path: path)
            try store.add(url: "https://a.example/feed.xml", title: "A")
        }
        let store = try FeedStore(path: path)
        #expect(try store.feeds().map(\.title) == ["A"])
    }
}
