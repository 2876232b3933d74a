import Testing

@testable import PodcastFeeds

/// `FeedLinkDiscovery`: the `<link rel="alternate">` feeds of a page, as autodiscovery finds them.
@Suite struct FeedLinkDiscoveryTests {
    static func links(_ html: String, page: String = "https://example.com/blog/post.html", type: String? = nil)
        -> [FeedLink]
    {
        FeedLinkDiscovery.links(inHTML: Array(html.utf8), pageURL: page, httpContentType: type)
    }

    @Test func relTokensAndTypesDecideWhatCounts() {
        let found = Self.links(
            """
            <html><head>
            <link rel="alternate" type="application/rss+xml" title="  RSS
               feed " href="/feed.xml">
            <link rel="ALTERNATE home" type="Application/Atom+XML; charset=utf-8" href="atom.xml">
            <link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
            <link rel="alternates" type="application/rss+xml" href="/no1.xml">
            <link rel="stylesheet" type="application/rss+xml" href="/no2.xml">
            <link rel="alternate" type="application/rss+xml">
            <link rel="alternate" type="application/rss+xml" href="/feed.xml">
            </head><body><a rel="alternate" type="application/rss+xml" href="/no3.xml">a</a></body></html>
            """)
        #expect(
            found == [
                FeedLink(url: "https://example.com/feed.xml", title: "RSS feed", type: "application/rss+xml"),
                FeedLink(url: "https://example.com/blog/atom.xml", title: nil, type: "application/atom+xml"),
            ])
    }

    /// A page names only web feeds: a local file, a script or another scheme is no candidate,
    /// and a page read from a file gives no link relative to it.
    @Test func onlyHTTPAndHTTPSLinksCount() {
        let found = Self.links(
            """
            <link rel="alternate" type="application/rss+xml" href="file:///etc/passwd">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="ftp://x/y.xml">
            <link rel="alternate" type="application/rss+xml" href="HTTP://Example.com/a.xml">
            <link rel="alternate" type="application/atom+xml" href="https://example.com/b.xml">
            """)
        #expect(found.map(\.url) == ["HTTP://Example.com/a.xml", "https://example.com/b.xml"])
        #expect(
            Self.links(
                #"<link rel="alternate" type="application/rss+xml" href="feed.xml">"#, page: "file:///tmp/page.html"
            ).isEmpty)
    }

    @Test func baseHrefAndBrokenMarkup() {
        // Unquoted attributes, no closing tags, a base: as browsers read it.
        let found = Self.links(
            "<title>x</title><base href=\"https://cdn.example/podcast/\"><link rel=alternate type=application/rss+xml href=mp3.xml><p>text",
            page: "http://example.com/")
        #expect(found.map(\.url) == ["https://cdn.example/podcast/mp3.xml"])
    }

    @Test func theHTTPCharsetIsTheEncodingElseUTF8() {
        let latin1: [UInt8] =
            Array("<html><head><link rel=alternate type=application/rss+xml title=\"Caf".utf8) + [0xE9]
            + Array("\" href=/f.xml></head></html>".utf8)
        let http = FeedLinkDiscovery.links(
            inHTML: latin1, pageURL: "http://h/", httpContentType: "text/html; charset=ISO-8859-1")
        #expect(http.map(\.title) == ["Café"])
        let utf8 = Self.links("<link rel=alternate type=application/rss+xml title=\"Café\" href=/f.xml>")
        #expect(utf8.map(\.title) == ["Café"])
    }

    @Test func aPageWithoutLinksOrNotHTMLGivesNone() {
        #expect(Self.links("<html><head><title>Home</title></head><body>Hi</body></html>") == [])
        #expect(Self.links("") == [])
        #expect(FeedLinkDiscovery.links(inHTML: [0, 1, 2, 0xFF], pageURL: "http://h/") == [])
    }

    @Test func aStartTagWithTooManyAttributesIsNotParsed() {
        // libxml2's HTML parser compares each attribute with every earlier one: refused unread.
        let attributes = (0...StartTagLimit.maxAttributes).map { " a\($0)=x" }.joined()
        let page = "<link rel=alternate type=application/rss+xml href=/f.xml><div\(attributes)></div>"
        #expect(Self.links(page) == [])
        let fits = (1..<StartTagLimit.maxAttributes).map { " a\($0)=x" }.joined()
        #expect(Self.links("<link rel=alternate type=application/rss+xml href=/f.xml><div\(fits)></div>").count == 1)
    }

    @Test func atMostMaxLinksAreReturned() {
        let many = (0..<(FeedLinkDiscovery.maxLinks + 20)).map {
            "<link rel=alternate type=application/rss+xml href=/f\($0).xml>"
        }.joined()
        let found = Self.links(many)
        #expect(found.count == FeedLinkDiscovery.maxLinks)
        #expect(found.first?.url == "https://example.com/f0.xml")
    }
}
