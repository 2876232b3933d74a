import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// A first poll that stores no episode (a valid empty channel, or a malformed document from
/// which nothing was recovered) used to spend the first-sync limit, so the next poll announced
/// the whole back catalogue. The limit now applies to the first sync that stores episodes.
@Suite struct EmptyFirstSyncTests {
    let dir = TemporaryDirectory("empty-first-sync")
    let store: FeedStore

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    func fetched(_ id: Int64, _ text: String, at seconds: Double) throws -> FeedUpdateResult {
        let parsed = try FeedParser.parse(bytes: Array(text.utf8), baseURL: "http://h/f")
        return try store.apply(
            update: FeedUpdate(
                feedID: id, outcome: .fetched(parsed, etag: nil, lastModified: nil),
                checkedAt: Date(timeIntervalSince1970: seconds)))
    }

    @Test(arguments: [
        // A valid, empty channel.
        "<rss version=\"2.0\"><channel><title>Soon</title></channel></rss>",
        // Malformed: the item cannot be recovered (libxml2 gives up inside it).
        "<rss version=\"2.0\"><channel><title>Broken</title><item><title>x</ti\u{1}tle></item></channel></rss>",
    ])
    func aFirstPollWithNoEpisodeKeepsTheLimit(_ first: String) throws {
        let parsed = try FeedParser.parse(bytes: Array(first.utf8), baseURL: nil)
        #expect(parsed.isWellFormed == first.contains("Soon"))
        let feed = try store.add(url: "http://h/f")
        let empty = try fetched(feed.id, first, at: 1_000)
        #expect(empty.newEpisodes.isEmpty)
        #expect(empty.feed.lastSuccess != nil)  // a successful poll, just without episodes
        let full = try fetched(feed.id, FirstSyncTests.rss(50), at: 2_000)
        #expect(full.newEpisodes.count == 50)
        #expect(full.announced.count == 3)
        // From then on every new episode is announced.
        let more = try fetched(feed.id, FirstSyncTests.rss(54), at: 3_000)
        #expect(more.announced.count == 4)
    }
}
