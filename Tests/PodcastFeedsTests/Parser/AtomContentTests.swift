import Foundation
import Testing

@testable import PodcastFeeds

/// Base64 Atom content and XHTML titles.
struct AtomContentTests {
    static func entry(_ inner: String) throws -> Episode {
        let xml = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>A</title><entry><id>1</id>\(inner)</entry></feed>"
        return try #require(FeedParser.parse(bytes: Array(xml.utf8), baseURL: nil).episodes.first)
    }

    @Test func octetStreamContentIsDecoded() throws {
        // "Show notes: <b>bold</b> & more" in base64, wrapped over two lines.
        let encoded = Data("Show notes: <b>bold</b> & more".utf8).base64EncodedString()
        let wrapped = String(encoded.prefix(20)) + "\n  " + String(encoded.dropFirst(20))
        let episode = try Self.entry("<content type=\"application/octet-stream\">\(wrapped)</content>")
        #expect(episode.description == "Show notes: <b>bold</b> & more")
    }

    @Test func atom03Base64ModeWithHTMLType() throws {
        let encoded = Data("<p>Hello <i>world</i></p>".utf8).base64EncodedString()
        let episode = try Self.entry("<content type=\"text/html\" mode=\"base64\">\(encoded)</content>")
        #expect(episode.descriptionHTML == "<p>Hello <i>world</i></p>")
        #expect(episode.description == "Hello world")
    }

    @Test func binaryBase64IsDroppedNotShownRaw() throws {
        let encoded = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00]).base64EncodedString()
        let xml =
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>A</title><entry><id>1</id><content type=\"image/jpeg\">\(encoded)</content></entry></feed>"
        let feed = try FeedParser.parse(bytes: Array(xml.utf8), baseURL: nil)
        #expect(feed.episodes[0].description == nil)
        #expect(feed.episodes[0].descriptionHTML == nil)
        #expect(feed.warnings.contains("item 1: base64 content that is not UTF-8 text dropped"))
    }

    @Test func xhtmlTitleKeepsEscapedTextAndDropsScript() throws {
        let episode = try Self.entry(
            """
            <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">History of the &lt;blink&gt; tag<script>alert(1)</script> <b>now</b></div></title>
            """)
        #expect(episode.title == "History of the <blink> tag now")
        let feed = try FeedParser.parse(
            bytes: Array(
                """
                <feed xmlns="http://www.w3.org/2005/Atom"><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A &amp; B<script>x</script></div></title></feed>
                """.utf8), baseURL: nil)
        #expect(feed.channel.title == "A & B")
    }

    @Test func htmlAndTextTitlesUnchanged() throws {
        #expect(
            try Self.entry("<title type=\"html\">History of the &amp;lt;blink&amp;gt; tag</title>").title
                == "History of the <blink> tag")
        #expect(try Self.entry("<title>a &lt;b&gt; c</title>").title == "a <b> c")
    }
}
