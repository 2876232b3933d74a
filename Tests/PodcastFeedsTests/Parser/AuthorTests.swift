import Foundation
import Testing

@testable import PodcastFeeds

/// Authors from every vocabulary feeds use, and `<redirect><newLocation>`.
struct AuthorTests {
    static func parse(_ xml: String, base: String? = nil) throws -> ParsedFeed {
        try FeedParser.parse(bytes: Array(xml.utf8), baseURL: base)
    }

    @Test func rssAuthorsInPreferenceOrder() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>Show</title><managingEditor>ed@example.com (Ed Itor)</managingEditor>
            <dc:creator>Channel Creator</dc:creator>
            <item><guid>1</guid><itunes:author>Tunes</itunes:author><dc:creator>DC</dc:creator><author>a@example.com (RSS Name)</author></item>
            <item><guid>2</guid><dc:creator> DC  Only </dc:creator><author>a@example.com (RSS Name)</author></item>
            <item><guid>3</guid><author>host@example.com (Host Name)</author></item>
            <item><guid>4</guid><author>Jo Smith &lt;jo@example.com&gt;</author></item>
            <item><guid>5</guid><author>plain@example.com</author></item>
            <item><guid>6</guid></item>
            </channel></rss>
            """)
        #expect(feed.channel.author == "Channel Creator")
        #expect(feed.channel.itunesAuthor == nil)
        #expect(feed.episodes.map(\.author) == ["Tunes", "DC Only", "Host Name", "Jo Smith", "plain@example.com", nil])
        #expect(feed.episodes.map(\.itunesAuthor) == ["Tunes", nil, nil, nil, nil, nil])
    }

    @Test func managingEditorIsTheLastResort() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0"><channel><title>Show</title><managingEditor>ed@example.com (Ed Itor)</managingEditor></channel></rss>
            """)
        #expect(feed.channel.author == "Ed Itor")
        let itunes = try Self.parse(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title>
            <managingEditor>ed@example.com (Ed Itor)</managingEditor><itunes:author>The Tunes</itunes:author></channel></rss>
            """)
        #expect(itunes.channel.author == "The Tunes")
        #expect(itunes.channel.itunesAuthor == "The Tunes")
    }

    @Test func atomEntryAndFeedAuthorsWithFallback() throws {
        let feed = try Self.parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <entry><id>1</id><author><name>Entry One</name><email>e@example.com</email></author><author><name>Co Host</name></author></entry>
            <entry><id>2</id><title>no author</title></entry>
            <author><name>Feed Person</name><uri>http://example.com/</uri></author>
            </feed>
            """)
        #expect(feed.channel.author == "Feed Person")
        #expect(feed.episodes.map(\.author) == ["Entry One, Co Host", "Feed Person"])
        // The entry title is not confused with an author name.
        #expect(feed.episodes[1].title == "no author")
    }

    @Test func redirectNewLocationMovesTheFeed() throws {
        let inChannel = try Self.parse(
            """
            <rss version="2.0"><channel><title>Old</title><redirect><newLocation> /new/feed.xml </newLocation></redirect></channel></rss>
            """, base: "http://example.com/old.xml")
        #expect(inChannel.channel.newFeedURL == "http://example.com/new/feed.xml")
        #expect(inChannel.channel.title == "Old")
        let underRSS = try Self.parse(
            """
            <rss version="2.0"><redirect><newLocation>http://example.org/feed</newLocation></redirect><channel><title>Old</title></channel></rss>
            """)
        #expect(underRSS.channel.newFeedURL == "http://example.org/feed")
        let bare = try Self.parse("<redirect><newLocation>https://example.org/moved.rss</newLocation></redirect>")
        #expect(bare.format == .rss)
        #expect(bare.channel.newFeedURL == "https://example.org/moved.rss")
        #expect(bare.episodes.isEmpty)
        #expect(bare.warnings.contains("the document is only a <redirect> to a new location"))
    }

    /// `itunes:new-feed-url` wins over `<redirect>` whatever the order, like the first one given.
    @Test func newFeedURLAndRedirectTogether() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Old</title>
            <itunes:new-feed-url>http://a.example/feed</itunes:new-feed-url>
            <redirect><newLocation>http://b.example/feed</newLocation></redirect></channel></rss>
            """)
        #expect(feed.channel.newFeedURL == "http://a.example/feed")
    }
}
