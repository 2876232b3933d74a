import Foundation
import Testing

@testable import PodcastFeeds
@testable import PodcastStore

/// A degraded (truncated) copy of a known feed never deletes, duplicates nor rewrites episodes,
/// wherever the cut falls: parser and store together, for every prefix of the document.
/// (`DaemonIntegrationTests.testTruncatedCopyAfterAGoodOneAddsAndDeletesNothing` runs one cut
/// through the whole daemon: HTTP, parser, store, events and warnings.)
@Suite struct DegradedParseTests {
    /// The feed `DaemonIntegrationTests` serves (the same document, written out here).
    static func rss(_ guids: [String], title: String = "Loopback Show") -> String {
        let items = guids.map {
            "<item><guid>\($0)</guid><title>Episode \($0)</title><pubDate>Mon, 0\(min(9, Int($0.dropFirst()) ?? 1)) Jan 2024 10:00:00 GMT</pubDate><enclosure url=\"/media/\($0).mp3\" length=\"1000\" type=\"audio/mpeg\"/></item>"
        }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>\(items)</channel></rss>"
    }

    @Test func everyTruncationOfAKnownFeedAddsNothing() throws {
        let bytes = Array(Self.rss(["g1", "g2", "g3"]).utf8)
        let store = try FeedStore(path: ":memory:")
        let feed = try store.add(url: "http://h/f")
        let good = try FeedParser.parse(bytes: bytes, baseURL: "http://h/f", httpContentType: nil)
        try store.apply(update: FeedUpdate(feedID: feed.id, outcome: .fetched(good, etag: nil, lastModified: nil)))
        let before = try store.episodes(feedID: feed.id)
        #expect(before.map(\.guid) == ["g3", "g2", "g1"])

        var parsedCuts = 0
        var added: [String] = []
        for cut in 1..<bytes.count {
            // A cut before the channel is no feed at all: a failed poll, which writes no episode.
            guard
                let parsed = try? FeedParser.parse(
                    bytes: Array(bytes[..<cut]), baseURL: "http://h/f", httpContentType: nil)
            else { continue }
            parsedCuts += 1
            #expect(!parsed.isWellFormed)
            let r = try store.apply(
                update: FeedUpdate(feedID: feed.id, outcome: .fetched(parsed, etag: nil, lastModified: nil)))
            added += r.newEpisodes.map { "cut \(cut): \($0.identity)" }
        }
        #expect(parsedCuts > 0)
        #expect(added == [])
        #expect(try store.episodes(feedID: feed.id) == before)
    }
}
