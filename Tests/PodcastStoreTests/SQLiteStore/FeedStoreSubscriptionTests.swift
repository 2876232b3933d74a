import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastStore

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
        #expect(a.intervalSeconds == nil)  // the default, not a stored 3600
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

    @Test func urlsAreNormalisedByFeedLocation() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        #expect(try store.add(url: "feed://x.org/rss").url == "http://x.org/rss")
        #expect(try store.add(url: "/tmp/./feeds/../a.xml").url == "file:///tmp/a.xml")
        // Every spelling of the same file, or of the same http URL, is that one subscription.
        for same in ["file:///tmp/a.xml", "file:/tmp/a.xml", "file://localhost/tmp/a.xml", "/tmp/a.xml"] {
            #expect(throws: StoreError.alreadySubscribed(url: "file:///tmp/a.xml", id: 2)) { try store.add(url: same) }
        }
        for same in ["HTTP://X.ORG:80/rss", "http://x.org/rss#latest", "itpc://x.org/rss", "feed:http://x.org/rss"] {
            #expect(throws: StoreError.alreadySubscribed(url: "http://x.org/rss", id: 1)) { try store.add(url: same) }
        }
        #expect(try store.feed(matching: "/tmp/a.xml")?.id == 2)
        #expect(throws: StoreError.invalidURL("", reason: "empty feed location")) { try store.add(url: "") }
        #expect(
            throws: StoreError.invalidURL(
                "ftp://x/y", reason: "unsupported URL scheme 'ftp' (use http, https, file or a path)")
        ) {
            try store.add(url: "ftp://x/y")
        }
        #expect(throws: StoreError.invalidURL("https://", reason: "not a valid https URL (no host)")) {
            try store.add(url: "https://")
        }
        // A redirect target is normalised the same way before the "already subscribed" check.
        let r = try store.apply(
            update: FeedUpdate(
                feedID: 1, outcome: .notModified,
                permanentRedirect: PermanentRedirect(url: "HTTPS://X.org:443/new", status: 301)))
        #expect(r.feed.url == "https://x.org/new")
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
        try store.setInterval(seconds: nil, id: feed.id)
        #expect(try store.feed(id: feed.id)?.intervalSeconds == nil)
        #expect(try store.add(url: "https://b.example/f", intervalSeconds: 3600).intervalSeconds == 3600)  // explicit
        #expect(try store.add(url: "https://c.example/f", intervalSeconds: 0).intervalSeconds == 1)
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
