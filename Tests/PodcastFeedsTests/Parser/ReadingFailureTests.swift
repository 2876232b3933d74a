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

    // MARK: Relative URLs a browser would resolve

    @Test func relativeURLsWithSpacesAndNonASCIIArePercentEncoded() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0"><channel><title>S</title><link>../site/ä b/</link>
            <item><guid>1</guid><link>épisodes/un deux</link>
            <enclosure url="audio/épisode 1.mp3" type="audio/mpeg"/>
            <description>&lt;a href="notes/día 1.html"&gt;notes&lt;/a&gt; &lt;img src="img/a|b.png"&gt;</description>
            </item></channel></rss>
            """)
        let episode = try #require(feed.episodes.first)
        #expect(feed.channel.link == "https://feeds.example.com/site/%C3%A4%20b/")
        #expect(episode.link == "https://feeds.example.com/show/%C3%A9pisodes/un%20deux")
        #expect(episode.enclosures.map(\.url) == ["https://feeds.example.com/show/audio/%C3%A9pisode%201.mp3"])
        #expect(
            episode.descriptionHTML
                == "<a href=\"https://feeds.example.com/show/notes/d%C3%ADa%201.html\">notes</a> <img src=\"https://feeds.example.com/show/img/a%7Cb.png\">"
        )
    }

    @Test func percentEncodingKeepsEscapesAndReadsBackslashAsSlash() {
        #expect(
            URLResolver.resolve("a%20b c%zz", against: Self.base) == "https://feeds.example.com/show/a%20b%20c%25zz")
        #expect(
            URLResolver.resolve("dir\\file.mp3", against: Self.base) == "https://feeds.example.com/show/dir/file.mp3")
        #expect(URLResolver.resolve("x.mp3", against: "https://ex.com/ñ/feed.xml") == "https://ex.com/%C3%B1/x.mp3")
        // Absolute references stay byte for byte: they are ids too.
        #expect(URLResolver.resolve("https://ex.com/a b.mp3", against: Self.base) == "https://ex.com/a b.mp3")
    }

    // MARK: A damaged end tag against a cut body

    static let twoItems = """
        <?xml version="1.0"?><rss version="2.0"><channel><title>S</title>
        <item><guid>1</guid><title>One</title></item><item><guid>2</guid><title>Two</title></item>
        </channel></rss>
        """

    @Test func aDocumentMissingOnlyItsFinalBracketLostNothing() throws {
        let bytes = Array(Self.twoItems.dropLast().utf8)
        let feed = try FeedParser.parse(bytes: bytes, baseURL: nil)
        #expect(feed.episodes.map(\.title) == ["One", "Two"])
        #expect(feed.ending == .afterItems(count: 2, channelClosed: true))
        let root = try #require(TruncatedDocument.unclosedRoot(bytes))
        #expect(TruncatedDocument.isDamagedEndOnly(bytes, root: root, ending: feed.ending))
    }

    @Test func anAtomDocumentEndingInsideItsEndTagLostNothing() throws {
        let bytes = Array(
            "<feed xmlns='http://www.w3.org/2005/Atom'><title>A</title><entry><id>1</id></entry>\n</fe".utf8)
        let feed = try FeedParser.parse(bytes: bytes, baseURL: nil)
        #expect(feed.ending == .afterItems(count: 1, channelClosed: false))
        #expect(TruncatedDocument.isDamagedEndOnly(bytes, root: "feed", ending: feed.ending))
    }

    @Test func aDocumentCutInsideAnItemSaysWhich() throws {
        let text = Self.twoItems
        let bytes = Array(text[..<text.range(of: "<title>Two")!.upperBound].utf8)
        let feed = try FeedParser.parse(bytes: bytes, baseURL: nil)
        #expect(feed.ending == .insideItem(2))
        #expect(!TruncatedDocument.isDamagedEndOnly(bytes, root: "rss", ending: feed.ending))
        #expect(
            TruncatedDocument(byteCount: bytes.count, rootElement: "rss", ending: feed.ending).description
                == "truncated: the document ends after \(bytes.count) bytes without </rss>, cut inside item 2")
    }

    @Test func aWellFormedDocumentHasNoEnding() throws {
        #expect(try Self.parse(Self.twoItems).ending == nil)
    }

    // MARK: Show notes in old elements

    @Test func xhtmlBodyIsTheShowNotes() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:xhtml="http://www.w3.org/1999/xhtml"><channel><title>S</title>
            <item><guid>1</guid><description>Short</description><xhtml:body><xhtml:p>Long <xhtml:a href="n.html">notes</xhtml:a> &amp; more</xhtml:p></xhtml:body></item>
            <item><guid>2</guid><body xmlns="http://www.w3.org/1999/xhtml"><div><p>In a div</p></div></body></item>
            </channel></rss>
            """)
        #expect(
            feed.episodes.map(\.descriptionHTML) == [
                "<p>Long <a href=\"https://feeds.example.com/show/n.html\">notes</a> &amp; more</p>",
                "<div><p>In a div</p></div>",
            ])
        #expect(feed.episodes.map(\.description) == ["Short", "In a div"])
    }

    @Test func fullitemAndContentUnderAMisspelledURIAreTheShowNotes() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/extra"><channel><title>S</title>
            <item><guid>1</guid><fullitem>&lt;p&gt;Full &lt;b&gt;item&lt;/b&gt;&lt;/p&gt;</fullitem></item>
            <item><guid>2</guid><content:encoded><![CDATA[<p>Encoded</p>]]></content:encoded></item>
            </channel></rss>
            """)
        #expect(feed.episodes.map(\.descriptionHTML) == ["<p>Full <b>item</b></p>", "<p>Encoded</p>"])
    }

    // MARK: Windows-1252 and double escaping

    @Test func windows1252ReferencesAndDoublyEncodedUTF8AreRepaired() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0"><channel><title>Caf\u{C3}\u{A9} talk</title>
            <item><guid>1</guid><title>Wait\u{E2}\u{20AC}\u{A6} don\u{E2}\u{20AC}\u{2122}t</title><description>It&amp;#8217;s Q&amp;amp;A &amp;lt;b&amp;gt;</description></item>
            <item><guid>3</guid><title>Won&#146;t</title><description>\u{E2}\u{80}\u{A6}and \u{C3}\u{A9}t\u{C3}\u{A9}</description></item>
            <item><guid>2</guid><title>Don&amp;#39;t stop</title><description>D\u{E9}j\u{E0} vu \u{2026} \u{C3}</description></item>
            </channel></rss>
            """)
        #expect(feed.channel.title == "Café talk")
        #expect(feed.episodes.map(\.title) == ["Wait… don\u{2019}t", "Won\u{2019}t", "Don't stop"])
        // Only what is unambiguous: `&lt;` stays, a real "é" or "…" beside a lone "Ã" is left alone.
        #expect(feed.episodes.map(\.description) == ["It\u{2019}s Q&A &lt;b&gt;", "…and été", "Déjà vu … Ã"])
    }

    @Test func idsAndURLsAreNotRepaired() throws {
        // A guid keys its episode: a repair would make a stored episode new again.
        let feed = try Self.parse(
            """
            <rss version="2.0"><channel><title>S</title>
            <item><guid>caf\u{C3}\u{A9}-1</guid><title>caf\u{C3}\u{A9}</title><link>https://example.com/caf\u{C3}\u{A9}</link></item>
            </channel></rss>
            """)
        #expect(feed.episodes.first?.guid == "caf\u{C3}\u{A9}-1")
        #expect(feed.episodes.first?.link == "https://example.com/caf\u{C3}\u{A9}")
        #expect(feed.episodes.first?.title == "café")
    }

    @Test func atomTextKeepsLiteralReferences() throws {
        let feed = try Self.parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>&amp;#8217; in Atom</title></feed>
            """)
        #expect(feed.channel.title == "&#8217; in Atom")
    }

    // MARK: Authors

    @Test func authorsSplitIntoNameAndEmail() throws {
        let feed = try Self.parse(
            """
            <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>S</title>
            <managingEditor>Ed Itor (ed@example.com)</managingEditor>
            <item><guid>1</guid><author>Jo Smith (jo@example.com)</author></item>
            <item><guid>2</guid><author>jo@example.com (Jo Smith)</author></item>
            <item><guid>3</guid><author>"Jo Smith" &lt;mailto:jo@example.com&gt;</author></item>
            <item><guid>4</guid><dc:author>Dee Author</dc:author></item>
            <item><guid>5</guid><author>only@example.com</author></item>
            <item><guid>6</guid><author>No Address</author></item>
            </channel></rss>
            """)
        #expect(feed.channel.author == "Ed Itor")
        #expect(feed.channel.authorEmail == "ed@example.com")
        #expect(
            feed.episodes.map(\.author) == [
                "Jo Smith", "Jo Smith", "Jo Smith", "Dee Author", "only@example.com", "No Address",
            ])
        #expect(
            feed.episodes.map(\.authorEmail) == [
                "jo@example.com", "jo@example.com", "jo@example.com", nil, "only@example.com", nil,
            ])
    }

    @Test func atomAuthorEmailIsRead() throws {
        let feed = try Self.parse(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><author><name>Feed Person</name><email>f@example.com</email></author>
            <entry><id>1</id><author><name>Entry Person</name><email>e@example.com</email></author></entry>
            <entry><id>2</id></entry></feed>
            """)
        #expect(feed.channel.authorEmail == "f@example.com")
        #expect(feed.episodes.map(\.authorEmail) == ["e@example.com", "f@example.com"])
    }
}
