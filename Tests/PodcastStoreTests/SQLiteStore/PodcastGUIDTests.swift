import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds
@testable import PodcastStore

/// A show's `podcast:guid` is stored per feed, so the same show under a second URL is found.
@Suite struct PodcastGUIDTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func fetched(_ id: Int64, guid: String?) -> FeedUpdate {
        let parsed = ParsedFeed(
            format: .rss, channel: Channel(title: "Show", podcastGUID: guid),
            episodes: [Episode(guid: "e1", title: "One")])
        return FeedUpdate(feedID: id, outcome: .fetched(parsed, etag: nil, lastModified: nil), checkedAt: t0)
    }

    @Test func theSameShowUnderTwoURLsIsFoundAndWarnedAbout() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let old = try store.add(url: "https://old.example/feed.xml", added: t0)
        let new = try store.add(url: "https://new.example/feed.xml", added: t0)
        let other = try store.add(url: "https://other.example/feed.xml", added: t0)
        #expect(try store.apply(update: fetched(old.id, guid: " 917393E3-1B1E-5CEF-ACE4-EDAA54E1F810 ")).warnings == [])
        #expect(try store.apply(update: fetched(other.id, guid: "another")).warnings == [])
        let applied = try store.apply(update: fetched(new.id, guid: "917393e3-1b1e-5cef-ace4-edaa54e1f810"))
        #expect(
            applied.warnings == [
                "feed #\(new.id) https://new.example/feed.xml: the same show as feed #\(old.id) https://old.example/feed.xml (podcast:guid 917393e3-1b1e-5cef-ace4-edaa54e1f810); remove one of them"
            ])
        #expect(try store.feeds(podcastGUID: "917393E3-1b1e-5cef-ace4-edaa54e1f810").map(\.id) == [old.id, new.id])
        // A document without a guid keeps the last one.
        _ = try store.apply(update: fetched(old.id, guid: nil))
        #expect(try store.feeds(podcastGUID: "917393e3-1b1e-5cef-ace4-edaa54e1f810").map(\.id) == [old.id, new.id])
        #expect(try store.feeds(podcastGUID: "  ").isEmpty)
        #expect(try store.database.scalarInt("PRAGMA user_version") == 11)
    }

    @Test func replaceURLMovesTheFeedAndDropsItsValidators() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let feed = try store.add(url: "https://old.example/feed.xml", added: t0)
        let other = try store.add(url: "https://other.example/feed.xml", added: t0)
        var update = fetched(feed.id, guid: "g")
        update.outcome = .fetched(
            ParsedFeed(format: .rss, channel: Channel(title: "Show"), episodes: [Episode(guid: "e1", title: "One")]),
            etag: "\"v1\"", lastModified: "Sat, 05 Dec 2026 10:00:00 GMT")
        try store.apply(update: update)
        let before = try #require(try store.feed(id: feed.id))
        #expect(before.etag == "\"v1\"")
        let episodes = try store.episodes(feedID: feed.id)
        #expect(episodes.count == 1)

        let move = try store.replaceURL(id: feed.id, with: "https://new.example/feed.xml", at: t0)
        #expect(
            move
                == FeedMove(
                    feedID: feed.id, from: before.url, to: "https://new.example/feed.xml", at: t0, reason: .podcastGUID)
        )
        var expected = before
        expected.url = "https://new.example/feed.xml"
        expected.etag = nil
        expected.lastModified = nil
        #expect(try store.feed(id: feed.id) == expected)
        #expect(try store.episodes(feedID: feed.id) == episodes)
        #expect(try store.urlHistory(feedID: feed.id) == [move])

        // Another subscription's URL, or its own, is refused; so is a feed that is not there.
        #expect(throws: StoreError.alreadySubscribed(url: other.url, id: other.id)) {
            try store.replaceURL(id: feed.id, with: other.url)
        }
        #expect(throws: StoreError.alreadySubscribed(url: expected.url, id: feed.id)) {
            try store.replaceURL(id: feed.id, with: expected.url)
        }
        #expect(throws: StoreError.noSuchFeed("99")) { try store.replaceURL(id: 99, with: "https://x.example/f") }
        #expect(try store.feeds() == [expected, other])
        #expect(try store.urlHistory(feedID: feed.id).count == 1)
    }

    @Test func addRecordsTheGUIDItReadBeforeAnyPoll() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let feed = try store.add(url: "https://old.example/feed.xml", added: t0)
        try store.setPodcastGUID("  \n", id: feed.id)
        #expect(try store.feeds(podcastGUID: "abc").isEmpty)
        try store.setPodcastGUID(" ABC ", id: feed.id)
        #expect(try store.feeds(podcastGUID: "abc").map(\.id) == [feed.id])
        #expect(throws: StoreError.noSuchFeed("99")) { try store.setPodcastGUID("abc", id: 99) }
    }
}
