import Foundation
import Testing

@testable import PodcastFeeds

/// Documents that read wrong before: each test is a small feed of the shape a real one had, and
/// the exact values a listener should see (feedparser's reading is the reference).
struct ReadingFailureTests {
    static let base = "https://feeds.example.com/show/feed.xml"

    static func parse(_ xml: String, base: String? = ReadingFailureTests.base) throws -> ParsedFeed {
        try FeedParser.parse(bytes: Array(xml.utf8), baseURL: base)
    }

    // MARK: Old default namespaces

    @Test(arguments: [
        "http://blogs.law.harvard.edu/tech/rss", "http://backend.userland.com/rss",
        "http://backend.userland.com/rss2", "http://purl.org/rss/1.0/modules/rss091#",
    ])
    func historicalDefaultRSSNamespacesAreRSS(_ uri: String) throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns="\(uri)"><channel><title>Old Show</title>
            <item><title>One</title><guid>1</guid><enclosure url="one.mp3" type="audio/mpeg" length="10"/></item>
            <item><title>Two</title><guid>2</guid></item></channel></rss>
            """)
        #expect(feed.isWellFormed)
        #expect(feed.warnings == [])
        #expect(feed.channel.title == "Old Show")
        #expect(feed.episodes.map(\.title) == ["One", "Two"])
        #expect(feed.episodes.first?.enclosures.map(\.url) == ["https://feeds.example.com/show/one.mp3"])
    }

    @Test(arguments: ["http://purl.org/echo/", "http://example.com/newformat#", "http://purl.org/pie/"])
    func atomDraftNamespacesAreAtom(_ uri: String) throws {
        let feed = try Self.parse(
            """
            <feed xmlns="\(uri)"><title>Draft</title><entry><title>E</title><id>tag:e</id></entry></feed>
            """)
        #expect(feed.format == .atom)
        #expect(feed.channel.title == "Draft")
        #expect(feed.episodes.map(\.guid) == ["tag:e"])
    }
}
