import Foundation
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// What the engine's fetcher and the store say to each other: a stored feed's next conditional
/// GET (`FeedRecord.fetchRequest`), and a fetch error as the store's `FeedFailure`.
@Suite struct FeedRecordFetchRequestTests {
    @Test func fetchErrorsMapToFailures() {
        let http = FetchError(
            kind: .httpStatus(404), url: "https://a.example/x", message: "HTTP 404 Not Found", status: 404)
        #expect(FeedFailure(http) == FeedFailure(httpStatus: 404, message: "https://a.example/x: HTTP 404 Not Found"))
        let timeout = FetchError(kind: .timeout, url: "https://a.example/x", message: "timed out")
        #expect(FeedFailure(timeout) == FeedFailure(message: "https://a.example/x: timed out"))
    }

    @Test func validatorsGoIntoTheNextRequest() throws {
        let store = try FeedStore(path: ":memory:")
        let f = try store.add(url: "https://a.example/feed.xml")
        #expect(f.fetchRequest() == FetchRequest(url: "https://a.example/feed.xml"))
        let parsed = ParsedFeed(
            format: .rss, channel: Channel(title: "Show"), episodes: [Episode(guid: "g1", title: "Episode 1")])
        let r = try store.apply(
            update: FeedUpdate(feedID: f.id, outcome: .fetched(parsed, etag: "\"e\"", lastModified: "LM")))
        let limits = FetchLimits(totalTimeout: 9)
        #expect(
            r.feed.fetchRequest(limits: limits)
                == FetchRequest(url: "https://a.example/feed.xml", etag: "\"e\"", lastModified: "LM", limits: limits))
    }
}
