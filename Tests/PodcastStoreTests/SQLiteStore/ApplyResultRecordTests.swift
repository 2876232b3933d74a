import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds
@testable import PodcastStore

/// `apply(update:)` builds the returned `FeedRecord` instead of reading the row back: it must be
/// exactly what a fresh read returns, for every outcome.
@Suite struct ApplyResultRecordTests {
    // A fractional time, so the REAL round trip of the stored dates is exercised.
    let t0 = Date(timeIntervalSince1970: 1_700_000_000.123_456_7)

    func parsed(
        title: String?, link: String? = nil, image: String? = nil, wellFormed: Bool = true, newFeedURL: String? = nil
    ) -> ParsedFeed {
        ParsedFeed(
            format: .rss, channel: Channel(title: title, link: link, imageURL: image, newFeedURL: newFeedURL),
            episodes: (1...4).map {
                Episode(guid: "g\($0)", title: "E\($0)", published: t0.addingTimeInterval(Double($0) * 60))
            },
            isWellFormed: wellFormed)
    }

    @Test func everyOutcomeReturnsTheStoredRow() throws {
        let dir = TemporaryDirectory()
        let store = try FeedStore(path: dir.file("s.sqlite"))
        let f = try store.add(url: "https://a.example/feed.xml", title: "Mine", intervalSeconds: 600, added: t0)
        _ = try store.add(url: "https://taken.example/feed.xml", added: t0)
        let updates: [FeedUpdate] = [
            FeedUpdate(
                feedID: f.id,
                outcome: .fetched(
                    parsed(title: "Show", link: "https://a.example/", image: "https://a.example/i.png"), etag: "\"v1\"",
                    lastModified: "Tue, 14 Nov 2023 22:13:20 GMT"),
                checkedAt: t0, nextPoll: t0.addingTimeInterval(3600.25)),
            FeedUpdate(feedID: f.id, outcome: .notModified, checkedAt: t0.addingTimeInterval(10.5), nextPoll: nil),
            FeedUpdate(
                feedID: f.id, outcome: .failed(FeedFailure(httpStatus: 500, message: "HTTP 500")),
                checkedAt: t0.addingTimeInterval(20.1),
                nextPoll: t0.addingTimeInterval(99.9)),
            FeedUpdate(
                feedID: f.id, outcome: .failed(FeedFailure(message: "timeout")), checkedAt: t0.addingTimeInterval(30.7)),
            FeedUpdate(
                feedID: f.id, outcome: .notModified,
                permanentRedirect: PermanentRedirect(url: "https://b.example/feed.xml", status: 301),
                checkedAt: t0.addingTimeInterval(40.3)),
            // A degraded parse: no validators kept; channel values missing keep the stored ones.
            FeedUpdate(
                feedID: f.id,
                outcome: .fetched(parsed(title: nil, wellFormed: false), etag: "\"v2\"", lastModified: nil),
                checkedAt: t0.addingTimeInterval(50.9)),
            // A refused move (already subscribed) and an accepted one.
            FeedUpdate(
                feedID: f.id,
                outcome: .fetched(
                    parsed(title: "Show 2", newFeedURL: "https://taken.example/feed.xml"), etag: nil, lastModified: "x"),
                checkedAt: t0.addingTimeInterval(60.2)),
            FeedUpdate(
                feedID: f.id,
                outcome: .fetched(
                    parsed(title: " ", newFeedURL: "https://c.example/feed.xml"), etag: "e", lastModified: nil),
                permanentRedirect: PermanentRedirect(url: "https://d.example/feed.xml", status: 308),
                checkedAt: t0.addingTimeInterval(70.4)),
            FeedUpdate(
                feedID: f.id, outcome: .failed(FeedFailure(httpStatus: 410, message: "HTTP 410 Gone")),
                checkedAt: t0.addingTimeInterval(80.8)),
        ]
        var urls: [String] = []
        for update in updates {
            let result = try store.apply(update: update)
            let stored = try #require(try store.feed(id: f.id))
            #expect(result.feed == stored)
            urls.append(stored.url)
        }
        #expect(
            urls == [
                "https://a.example/feed.xml", "https://a.example/feed.xml", "https://a.example/feed.xml",
                "https://a.example/feed.xml",
                "https://b.example/feed.xml", "https://b.example/feed.xml", "https://b.example/feed.xml",
                "https://c.example/feed.xml",
                "https://c.example/feed.xml",
            ])
        let last = try #require(try store.feed(id: f.id))
        #expect(last.enabled == false)
        #expect(last.status == .gone)
        #expect(last.failureCount == 1)
        #expect(last.feedTitle == "Show 2")
        #expect(last.newEpisodeCount == 3)
    }
}
