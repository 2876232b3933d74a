import Foundation
import Testing

@testable import PodcastFeeds

/// The smaller fields feeds use.
struct SmallerFieldTests {
    static func parse(_ xml: String, base: String? = nil, language: String? = nil) throws -> ParsedFeed {
        try FeedParser.parse(bytes: Array(xml.utf8), baseURL: base, httpContentLanguage: language)
    }

    @Test func dctermsDatesInPreferenceOrder() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:dcterms="http://purl.org/dc/terms/"><channel><title>T</title>
            <item><guid>1</guid><dcterms:modified>2024-03-03T00:00:00Z</dcterms:modified><dcterms:issued>2024-03-01T00:00:00Z</dcterms:issued></item>
            <item><guid>2</guid><dcterms:created>2024-02-01T00:00:00Z</dcterms:created><dcterms:modified>2024-02-05T00:00:00Z</dcterms:modified></item>
            <item><guid>3</guid><dcterms:modified>Mon, 05 Feb 2024 10:00:00 GMT</dcterms:modified></item>
            <item><guid>4</guid><dcterms:issued>2024-03-01T00:00:00Z</dcterms:issued><pubDate>Fri, 01 Mar 2024 12:00:00 GMT</pubDate></item>
            </channel></rss>
            """)
        #expect(
            feed.episodes.map { $0.published.map { Int64($0.timeIntervalSince1970) } } == [
                1_709_251_200, 1_706_745_600, 1_707_127_200, 1_709_294_400,
            ])
    }

    @Test func titleFallbacks() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
            <channel><dc:title>DC Show</dc:title>
            <item><guid>1</guid><dc:title>DC title</dc:title><media:title>Media title</media:title></item>
            <item><guid>2</guid><media:group><media:title> Media  title </media:title></media:group></item>
            <item><guid>3</guid><title>Own</title><dc:title>DC title</dc:title></item>
            </channel></rss>
            """)
        #expect(feed.channel.title == "DC Show")
        #expect(feed.episodes.map(\.title) == ["DC title", "Media title", "Own"])
    }

    @Test func languageFromXMLLangThenContentLanguage() throws {
        let own = try Self.parse(
            "<rss xml:lang=\"fr\"><channel><language>de</language><title>T</title></channel></rss>", language: "it")
        #expect(own.channel.language == "de")
        let channel = try Self.parse(
            "<rss xml:lang=\"fr\"><channel xml:lang=\"nl-BE\"><title>T</title></channel></rss>", language: "it")
        #expect(channel.channel.language == "nl-BE")
        let root = try Self.parse(
            "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"pt-BR\"><title>T</title></feed>")
        #expect(root.channel.language == "pt-BR")
        let header = try Self.parse("<rss><channel><title>T</title></channel></rss>", language: " en-GB , fr")
        #expect(header.channel.language == "en-GB")
        let none = try Self.parse("<rss><channel><title>T</title></channel></rss>")
        #expect(none.channel.language == nil)
    }

    @Test func itunesImageWithURLTypo() throws {
        let feed = try Self.parse(
            """
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title><itunes:image url="cover.jpg"/>
            <item><guid>1</guid><itunes:image url="/ep.png"/></item>
            <item><guid>2</guid><itunes:image href="right.png" url="wrong.png"/></item></channel></rss>
            """, base: "https://example.com/pod/feed.xml")
        #expect(feed.channel.imageURL == "https://example.com/pod/cover.jpg")
        #expect(feed.episodes.map(\.imageURL) == ["https://example.com/ep.png", "https://example.com/pod/right.png"])
    }

    @Test func rdfAboutIsTheItemLink() throws {
        let feed = try Self.parse(
            """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel rdf:about="http://example.com/"><title>T</title></channel>
            <item rdf:about="http://example.com/1"><title>One</title></item>
            <item rdf:about="http://example.com/2"><title>Two</title><link>http://example.com/two</link></item>
            </rdf:RDF>
            """)
        #expect(feed.episodes.map(\.link) == ["http://example.com/1", "http://example.com/two"])
    }

    @Test func channelSubtitle() throws {
        let feed = try Self.parse(
            """
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <itunes:subtitle>  A show about
            things </itunes:subtitle><item><guid>1</guid><itunes:subtitle>ep</itunes:subtitle></item></channel></rss>
            """)
        #expect(feed.channel.subtitle == "A show about things")
        #expect(feed.episodes[0].subtitle == "ep")
    }
}
