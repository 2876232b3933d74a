import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

struct OPMLTests {
    @Test func importFlattensAndFallsBack() throws {
        let outlines = try OPML.parse(bytes: TestData.fixture("subscriptions.opml"))
        #expect(
            outlines == [
                OPMLOutline(url: "https://one.example.org/feed.xml", title: "Text Only"),  // text when no title
                OPMLOutline(url: "https://two.example.org/rss?x=1&y=2", title: "Titled"),  // trimmed, bare & kept
                OPMLOutline(url: "https://three.example.org/podcast.rss", title: "Deep"),  // url when no xmlUrl
                OPMLOutline(url: "https://four.example.org/feed", title: nil),  // xmlUrl wins over url
                OPMLOutline(url: "https://one.example.org/feed.xml", title: "Duplicate"),  // the importer counts it
            ])  // the URL-less folder is left out
    }

    @Test func brokenFileIsAClearError() throws {
        #expect {
            try OPML.parse(bytes: TestData.fixture("broken.opml"))
        } throws: { error in
            guard case OPMLError.malformed(let details, let recovered) = error else { return false }
            return recovered == [
                OPMLOutline(url: "https://survivor.example.org/feed.xml", title: "Survivor"),
                OPMLOutline(url: "https://cut.example.org/feed.xml", title: "Cut off"),
            ]
                && details.first == "XML error at line 6: Couldn't find end of Start Tag outline line 5"
        }
        #expect(throws: OPMLError.notOPML(rootElement: "rss")) { try OPML.parse(bytes: Array("<rss/>".utf8)) }
        #expect(throws: OPMLError.emptyDocument) { try OPML.parse(bytes: []) }
    }

    @Test func exportIsOPML20AndRoundTrips() throws {
        let feeds = [
            OPMLOutline(url: "https://a.example.org/feed?x=1&y=2", title: "A \"quoted\" <show> & co"),
            OPMLOutline(url: "file:///srv/feeds/b.xml", title: nil, interval: 900),
        ]
        let text = OPML.export(feeds, title: "Mine")
        #expect(
            text == """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0" xmlns:pw="https://podcast-watch.invalid/opml/1">
                  <head>
                    <title>Mine</title>
                  </head>
                  <body>
                    <outline type="rss" text="A &quot;quoted&quot; &lt;show&gt; &amp; co" title="A &quot;quoted&quot; &lt;show&gt; &amp; co" xmlUrl="https://a.example.org/feed?x=1&amp;y=2"/>
                    <outline type="rss" text="file:///srv/feeds/b.xml" xmlUrl="file:///srv/feeds/b.xml" pw:interval="900"/>
                  </body>
                </opml>

                """)
        let back = try OPML.parse(bytes: Array(text.utf8))
        #expect(back == feeds)  // text == xmlUrl is no title; the interval comes back
        // pw:interval counts only in our namespace, under whatever prefix.
        let foreign = try OPML.parse(
            bytes: Array(
                """
                <opml xmlns:x="urn:other" xmlns:q="https://podcast-watch.invalid/opml/1"><body>\
                <outline xmlUrl="http://a/1" x:interval="60"/><outline xmlUrl="http://a/2" q:interval="60"/>\
                <outline xmlUrl="http://a/3" q:interval="-5"/></body></opml>
                """.utf8))
        #expect(foreign.map(\.interval) == [nil, 60, nil])
    }
}
