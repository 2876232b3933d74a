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
}
