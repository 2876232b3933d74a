import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// The demo feeds bundled with podcast-watch (Sources/podcast-watch/SampleFeeds) parse cleanly.
struct SampleFeedTests {
    static let folder = TestData.packageRoot.appendingPathComponent("Sources/podcast-watch/SampleFeeds")

    @Test(arguments: [
        ("tidepool-radio.xml", ParsedFeed.Format.rss, "Tidepool Radio"),
        ("the-slow-build.xml", .rss, "The Slow Build"),
        ("night-shift-notes.atom", .atom, "Night Shift Notes"),
    ])
    func sampleFeed(_ file: String, _ format: ParsedFeed.Format, _ title: String) throws {
        let url = Self.folder.appendingPathComponent(file)
        let feed = try FeedParser.parse(data: Data(contentsOf: url), url: url)
        #expect(feed.format == format)
        #expect(feed.channel.title == title)
        #expect(feed.isWellFormed)
        #expect(feed.warnings.isEmpty)
        #expect(feed.episodes.count == 5)
        #expect(feed.episodes.allSatisfy { $0.guid != nil && $0.published != nil && $0.duration != nil })
        #expect(
            feed.episodes.allSatisfy {
                $0.primaryEnclosure?.isAudioOrVideo == true && $0.primaryEnclosure?.length != nil
            })
        // Newest first in the files, a week apart.
        let dates = feed.episodes.compactMap(\.published)
        #expect(zip(dates, dates.dropFirst()).allSatisfy { $0.timeIntervalSince($1) == 7 * 86_400 })
    }
}
