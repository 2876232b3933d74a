import Foundation
import Testing

@testable import PodcastStore
@testable import PodcastWeb

/// The local podcast feed's XML: escaped feed text, characters XML cannot carry dropped, the
/// sanitiser's show notes, only http(s) links, dates in RFC 822.
@Suite struct LocalFeedXMLTests {
    static func entry(title: String?, notes: String?, link: String? = nil) -> LocalFeedEntry {
        LocalFeedEntry(
            episode: StoredEpisode(
                id: 7, feedID: 1, identity: "id-7", guid: nil, title: title, link: link,
                published: Date(timeIntervalSince1970: 1_700_000_000), duration: 3725.4, description: "plain",
                enclosure: nil, enclosures: [], firstSeen: Date(timeIntervalSince1970: 1), announced: true,
                announcementPending: false),
            podcastTitle: "Show \"&\" Co", path: "/m/Show/ep.mp3", bytes: 4321, finished: nil, showNotesHTML: notes)
    }

    @Test func itemsAreEscapedAndCarryTheServedEnclosure() {
        let xml = LocalFeedXML.render(
            channel: .init(
                title: "A <b>&</b>", link: "javascript:alert(1)", imageURL: "https://i/x.png", description: "d"),
            entries: [
                Self.entry(
                    title: "T\u{1B}[31m<x>\u{202E}", notes: "<p>ok<script>bad()</script></p>", link: "https://e/1")
            ],
            enclosureURL: { _ in "http://h/local/s/media/7/ep.mp3?a=1&b=2" }, contentType: { _ in "audio/mpeg" })
        #expect(xml.contains("<title>A &lt;b&gt;&amp;&lt;/b&gt;</title>"))
        #expect(!xml.contains("javascript"))
        #expect(xml.contains("<itunes:image href=\"https://i/x.png\"/>"))
        #expect(xml.contains("<title>T[31m&lt;x&gt;</title>"))
        #expect(xml.contains("<guid isPermaLink=\"false\">id-7</guid>"))
        #expect(xml.contains("<pubDate>Tue, 14 Nov 2023 22:13:20 +0000</pubDate>"))
        #expect(xml.contains("<link>https://e/1</link>"))
        #expect(xml.contains("<itunes:author>Show &quot;&amp;&quot; Co</itunes:author>"))
        #expect(xml.contains("<description>&lt;p&gt;ok&lt;/p&gt;</description>"))
        #expect(
            xml.contains(
                "<enclosure url=\"http://h/local/s/media/7/ep.mp3?a=1&amp;b=2\" length=\"4321\" type=\"audio/mpeg\"/>"))
        #expect(xml.contains("<itunes:duration>3725</itunes:duration>"))
        #expect(!xml.contains("\u{1B}") && !xml.contains("\u{202E}"))
    }

    @Test func anEntryWithoutShowNotesHasItsPlainDescription() {
        let xml = LocalFeedXML.render(
            channel: .init(title: "S", link: nil, imageURL: nil, description: "d"),
            entries: [Self.entry(title: nil, notes: nil)], enclosureURL: { _ in "u" }, contentType: { _ in "t" })
        #expect(xml.contains("<title>ep.mp3</title>"))
        #expect(xml.contains("<description>plain</description>"))
        #expect(!xml.contains("<image>"))
    }
}
