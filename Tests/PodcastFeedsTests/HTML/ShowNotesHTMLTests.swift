import Foundation
import Testing

@testable import PodcastFeeds

/// Relative URLs in show notes and permalinks; the sanitised HTML form.
struct ShowNotesHTMLTests {
    @Test func relativeURLsInShowNotesResolveAgainstTheBaseInScope() throws {
        let xml = """
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>
            <item xml:base="https://cdn.example.com/ep/1/"><guid isPermaLink="false">1</guid>
            <content:encoded><![CDATA[<p><a href="notes.html">notes</a> <img src='/img/a.png' alt=x> <a href=https://abs.example/x>abs</a> <a href="#t">top</a> <a href=rel/y>y</a></p>]]></content:encoded></item>
            <item><guid isPermaLink="false">2</guid><description>&lt;a href="../about"&gt;about&lt;/a&gt;</description></item>
            </channel></rss>
            """
        let feed = try FeedParser.parse(bytes: Array(xml.utf8), baseURL: "http://feeds.example.org/show/feed.xml")
        #expect(
            feed.episodes[0].descriptionHTML == """
                <p><a href="https://cdn.example.com/ep/1/notes.html">notes</a> <img src='https://cdn.example.com/img/a.png' alt=x> <a href=https://abs.example/x>abs</a> <a href="#t">top</a> <a href="https://cdn.example.com/ep/1/rel/y">y</a></p>
                """)
        #expect(feed.episodes[1].descriptionHTML == "<a href=\"http://feeds.example.org/about\">about</a>")
    }

    /// The pre-scan's attribute-name check, on bytes: the six URL attributes in any case, and
    /// nothing shorter, longer or merely prefixed.
    @Test func urlAttributeNamesOnBytes() {
        func check(_ name: String) -> Bool {
            Array(name.utf8).withUnsafeBufferPointer { HTMLURLResolution.isURLAttribute($0) }
        }
        for name in ["href", "HREF", "Src", "poster", "cite", "LongDesc", "background"] {
            #expect(check(name), "\(name)")
        }
        for name in ["hre", "hrefs", "srcset", "data", "action", "backgroun", "alt", ""] {
            #expect(!check(name), "\(name)")
        }
        #expect(HTMLURLResolution.urlAttributeBytes.count == HTMLURLResolution.urlAttributes.count)
    }

    @Test func atomHTMLContentUnderItsOwnXMLBase() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><id>x</id>
            <content type="html" xml:base="http://example.com/posts/7/">&lt;img src="cover.jpg"&gt;</content></entry></feed>
            """
        let feed = try FeedParser.parse(bytes: Array(xml.utf8), baseURL: nil)
        #expect(feed.episodes[0].descriptionHTML == "<img src=\"http://example.com/posts/7/cover.jpg\">")
    }

    @Test func relativePermalinkGuidBecomesTheLink() throws {
        let xml = """
            <rss version="2.0"><channel xml:base="https://example.com/blog/"><title>T</title>
            <item><guid>posts/1.html</guid></item>
            <item><guid isPermaLink="false">posts/2.html</guid></item>
            <item><guid>posts/3.html</guid><link>https://example.com/three</link></item>
            </channel></rss>
            """
        let feed = try FeedParser.parse(bytes: Array(xml.utf8), baseURL: nil)
        #expect(
            feed.episodes.map(\.link) == ["https://example.com/blog/posts/1.html", nil, "https://example.com/three"])
        // The guid itself stays as written: it is the episode's identity.
        #expect(feed.episodes[0].guid == "posts/1.html")
    }

    /// Without `xml:base`, a relative guid is only a link when `isPermaLink="true"` says so: most
    /// such guids are opaque ids that merely lack the attribute.
    @Test func relativeGuidWithoutBaseNeedsAnExplicitPermalink() throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title>
            <item><guid>abc-123</guid></item><item><guid isPermaLink="true">/e/4</guid></item></channel></rss>
            """
        let feed = try FeedParser.parse(bytes: Array(xml.utf8), baseURL: "https://example.com/feed.xml")
        #expect(feed.episodes.map(\.link) == [nil, "https://example.com/e/4"])
    }

    @Test(arguments: [
        // Scripts, handlers, javascript: URLs, styles.
        ("<p onclick=\"steal()\">Hi<script>alert(1)</script> there</p>", "<p>Hi there</p>"),
        ("<a href=\"javascript:alert(1)\">x</a>", "<a rel=\"nofollow noopener noreferrer\">x</a>"),
        ("<a href=\" JaVa\tScRiPt:alert(1)\">x</a>", "<a rel=\"nofollow noopener noreferrer\">x</a>"),
        // Found by fuzz-html: a control character inside the scheme is removed, as browsers do,
        // and the cleaned URL is what is written; a space inside it makes it relative (dropped).
        ("<img src=\"h\u{01}ttps://e.com/\n\ti.png \">", "<img src=\"https://e.com/i.png\">"),
        ("<a href=\"ht tps://e.com\">x</a>", "<a rel=\"nofollow noopener noreferrer\">x</a>"),
        ("<a href=\"javascript&#58;alert(1)\">x</a>", "<a rel=\"nofollow noopener noreferrer\">x</a>"),
        ("<img src=\"data:image/png;base64,AAAA\" alt=\"d\">", "<img alt=\"d\">"),
        (
            "<a href=\"https://ex.com/?a=1&amp;b=2\" target=_blank>ok</a>",
            "<a href=\"https://ex.com/?a=1&amp;b=2\" rel=\"nofollow noopener noreferrer\">ok</a>"
        ),
        (
            "<a href='mailto:me@ex.com' REL=opener>m</a>",
            "<a href=\"mailto:me@ex.com\" rel=\"nofollow noopener noreferrer\">m</a>"
        ),
        ("<a href=\"/relative\">r</a>", "<a rel=\"nofollow noopener noreferrer\">r</a>"),
        ("<div style=\"position:fixed\" id=main class=c>t</div>", "<div class=\"c\">t</div>"),
        ("<style>body{display:none}</style><iframe src=https://evil></iframe>ok", "ok"),
        // Unknown elements go, their text stays; comments go.
        ("<form action=x><input value=y><b>bold</b></form><!-- c -->", "<b>bold</b>"),
        // Balancing: unclosed closed, stray end tags dropped, case folded.
        ("<UL><LI>one<li>two", "<ul><li>one<li>two</li></li></ul>"),
        ("</div></div><p>x</p></section>", "<p>x</p>"),
        ("<b><i>x</b>y</i>", "<b><i>x</i></b>y"),
        // Text escaping: stray markup characters and bare ampersands.
        ("a < b & c > d &amp; &#39; &nbsp;", "a &lt; b &amp; c &gt; d &amp; &#39; &nbsp;"),
        (
            "<br/><hr><img src=https://e.com/i.png title='a\"b'/>",
            "<br><hr><img src=\"https://e.com/i.png\" title=\"a&quot;b\">"
        ),
        ("<svg><script>x</script><a href=https://e.com>in svg</a></svg>after", "after"),
        ("<p>unterminated <a href=\"https://e", "<p>unterminated &lt;a href=\"https://e</p>"),
    ])
    func sanitiser(_ input: String, _ expected: String) {
        #expect(HTMLSanitizer.sanitize(input) == expected)
    }

    /// The void elements the sanitiser drops (with or without content) have no content to drop:
    /// what follows one is kept (`embed` and `frame` used to swallow the rest of the notes).
    @Test(arguments: [
        "area", "base", "embed", "input", "link", "meta", "track", "wbr", "param", "keygen", "frame", "basefont",
        "bgsound",
    ])
    func droppedVoidElementKeepsWhatFollows(_ name: String) {
        #expect(HTMLSanitizer.sanitize("<p>a</p><\(name) src=x>AFTER") == "<p>a</p>AFTER")
        #expect(HTMLSanitizer.sanitize("<\(name.uppercased())>b<i>c</i></\(name)>d") == "b<i>c</i>d")
        #expect(HTMLSanitizer.sanitize("<object><\(name)>in</object>out") == "out")
    }

    @Test func episodeExposesRawAndSanitisedForms() throws {
        let xml = """
            <rss version="2.0"><channel><title>T</title><item><guid>1</guid>
            <description><![CDATA[<p>Hi <a href="javascript:x()" onclick="y()">there</a><script>z()</script></p>]]></description>
            </item></channel></rss>
            """
        let episode = try FeedParser.parse(bytes: Array(xml.utf8), baseURL: nil).episodes[0]
        #expect(
            episode.descriptionHTML
                == "<p>Hi <a href=\"javascript:x()\" onclick=\"y()\">there</a><script>z()</script></p>")
        #expect(episode.sanitizedDescriptionHTML == "<p>Hi <a rel=\"nofollow noopener noreferrer\">there</a></p>")
        #expect(episode.description == "Hi there")
    }
}
