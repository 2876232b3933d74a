import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Our own fixtures (Tests/PodcastFeedsTests/Fixtures, written for this project): each parsing rule
/// on its own, so the rules stay covered without the shared corpus.
struct FixtureFeedTests {
    static let base = "https://feeds.example.com/dir/feed.xml"

    static func parse(_ name: String, httpContentType: String? = nil) throws -> ParsedFeed {
        try FeedParser.parse(bytes: TestData.fixture(name), baseURL: base, httpContentType: httpContentType)
    }

    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Date {
        Date(
            timeIntervalSince1970: TimeInterval(
                DateParser.daysFromCivil(y, mo, d) * 86_400 + Int64(h * 3600 + mi * 60 + s)))
    }

    @Test func htmlNamedEntitiesAreDecodedAndUnknownOnesKept() throws {
        let feed = try Self.parse("entities.rss")
        #expect(feed.channel.title == "Café Stories\u{A0}Weekly")
        // &#146; is a C1 control: read as the Windows-1252 right quote it was meant to be.
        #expect(feed.channel.description == "Tales — told slowly &bogus; and ’quoted’")
        #expect(feed.episodes[0].title == "Résumé & Co © 2024")
        #expect(feed.episodes[0].enclosures[0].url == "https://cafe.example.org/audio/café.mp3")
        #expect(feed.isWellFormed == false)  // &eacute; and &bogus; are undefined in XML
        #expect(
            feed.warnings == [
                "decoded 7 HTML named entities that XML does not define", "kept unknown entities literally: &bogus;",
            ])
    }

    @Test func htmlEntitiesUnderAnExternalDTDAreNotAnError() throws {
        let feed = try Self.parse("external-dtd.rss")  // the DTD is never fetched
        #expect(feed.channel.title == "Old School édition")
        #expect(feed.isWellFormed)
    }

    @Test func bareAmpersandsAreKeptLiterally() throws {
        let feed = try Self.parse("bare-ampersand.rss")
        #expect(feed.channel.title == "Tom & Jerry Talk")
        #expect(feed.episodes[0].link == "https://example.org/play?a=1&b=2&c")
        #expect(feed.episodes[0].enclosures[0].url == "https://cdn.example.org/ep1.mp3?token=x&expires=99")
        // CDATA is untouched by the entity repair: its `&` are literal already. The `&nbsp;` left
        // in this plain RSS text is read as the character it names, as feedparser reads it.
        #expect(feed.episodes[0].description == "Inside CDATA & stays & as written \u{A0}")
        #expect(feed.isWellFormed == false)
        #expect(feed.warnings == ["kept 4 bare '&' literally (should be &amp;)"])
    }

    @Test func entityExpansionAttackExpandsNothing() throws {
        let feed = try Self.parse("billion-laughs.rss")
        #expect(feed.channel.title == "Laughs &lol9; end")
        #expect(feed.channel.description == "&ext;")  // no file read either
        #expect(feed.isWellFormed == false)
    }

    @Test func xmlBaseAndTrimmedURLs() throws {
        let feed = try Self.parse("xml-base.rss")
        #expect(feed.channel.link == "https://media.example.net/shows/about.html")
        #expect(feed.channel.imageURL == "https://media.example.net/shows/base/cover.jpg")
        #expect(
            feed.episodes.map(\.link) == [
                "https://media.example.net/shows/base/episodes/1", "https://other.example.com/root.html",
            ])
        #expect(
            feed.episodes.map { $0.enclosures.map(\.url) } == [
                ["https://media.example.net/shows/base/audio/one.mp3"], ["https://other.example.com/x/two.mp3"],
            ])
        #expect(feed.episodes[1].imageURL == "https://other.example.com/x/art/two.png")
    }

    @Test func relativeURLsResolveAgainstTheFeedURL() throws {
        let feed = try Self.parse("relative-urls.rss")
        #expect(feed.channel.link == "https://feeds.example.com/")
        #expect(feed.episodes[0].link == "https://feeds.example.com/dir/ep/1.html")
        #expect(feed.episodes[0].enclosures[0].url == "https://feeds.example.com/dir/media/1.ogg")
        // Without a base URL, references stay as written.
        let unresolved = try FeedParser.parse(bytes: TestData.fixture("relative-urls.rss"), baseURL: nil)
        #expect(unresolved.episodes[0].enclosures[0].url == "media/1.ogg")
    }

    @Test func latin1DeclarationOverUTF8IsReadAsUTF8() throws {
        let feed = try Self.parse("latin1-over-utf8.rss")
        #expect(feed.channel.title == "Café UTF-8 — mislabelled")
        #expect(feed.episodes[0].title == "Naïve")
        #expect(feed.encoding == "UTF-8")
        #expect(feed.isWellFormed)
        #expect(feed.warnings == ["declared encoding ISO-8859-1 but the content is valid UTF-8; read as UTF-8"])
    }

    @Test func realLatin1IsDecoded() throws {
        let feed = try Self.parse("latin1-real.rss")
        #expect(feed.channel.title == "Café ½ real Latin-1")
        #expect(feed.encoding == "ISO-8859-1")
        #expect(feed.warnings.isEmpty)
    }

    @Test func byteOrderMarks() throws {
        let utf8 = try Self.parse("bom-utf8.rss")
        #expect(utf8.channel.title == "BOM été")
        #expect(utf8.encoding == "UTF-8")
        let utf16 = try Self.parse("utf16le-bom.rss")
        #expect(utf16.channel.title == "Sixteen bits é漢")
        #expect(utf16.episodes.map(\.guid) == ["u16-1"])
        #expect(utf16.encoding == "UTF-16LE")
        #expect(utf16.isWellFormed)
    }

    @Test func httpCharsetIsTheTransportHint() throws {
        let feed = try Self.parse("http-charset.rss", httpContentType: "text/xml; charset=windows-1252")
        #expect(feed.channel.title == "Declared nowhere: £“quoted”")
        #expect(feed.encoding == "WINDOWS-1252")
        #expect(feed.isWellFormed)
        // Without the hint the bytes are not UTF-8: read as windows-1252 anyway, but flagged.
        let guessed = try Self.parse("http-charset.rss")
        #expect(guessed.channel.title == "Declared nowhere: £“quoted”")
        #expect(guessed.isWellFormed == false)
    }

    @Test func bogusEncodingNameIsFlaggedButRecovered() throws {
        let bytes = Array(
            "<?xml version=\"1.0\" encoding=\"klingon-8\"?><rss><channel><title>Qapla'</title></channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes: bytes, baseURL: nil)
        #expect(feed.channel.title == "Qapla'")
        #expect(feed.isWellFormed == false)
        #expect(feed.warnings.first == "unsupported encoding \"KLINGON-8\"; read as UTF-8 or windows-1252")
    }

    @Test func undeclaredPrefixesAndDefaultNamespacedITunes() throws {
        let feed = try Self.parse("undeclared-prefixes.rss")
        #expect(feed.channel.author == "Undeclared Author")
        #expect(feed.channel.explicit == false)
        #expect(feed.channel.locked)
        #expect(feed.channel.podcastGUID == "917393e3-1b1e-5cef-ace4-edaa54e1f810")
        #expect(feed.episodes[0].duration == 600)
        #expect(feed.episodes[0].descriptionHTML == "<p>Body</p>")
        #expect(feed.episodes[0].description == "Body")
        #expect(
            feed.episodes[0].enclosures == [
                Enclosure(url: "https://example.org/one.mp4", length: 99, mimeType: "video/mp4")
            ])
        #expect(feed.episodes[0].transcripts == [Transcript(url: "https://example.org/one.vtt", mimeType: "text/vtt")])
        #expect(feed.episodes[1].duration == 3600)  // <duration xmlns="…itunes…">
        #expect(feed.isWellFormed == false)  // libxml2 reports the namespace errors
        #expect(
            feed.warnings.last
                == "undeclared namespace prefixes read by their usual meaning: itunes, podcast, content, media")
    }

    @Test func everyEnclosureKeptAndAPrimaryChosen() throws {
        let feed = try Self.parse("enclosures.rss")
        let first = feed.episodes[0]
        #expect(
            first.enclosures == [
                Enclosure(url: "https://example.org/cover.jpg", length: 2048, mimeType: "image/jpeg"),
                Enclosure(url: "https://example.org/episode.mp3", length: nil, mimeType: "audio/mpeg"),  // "unknown"
                Enclosure(url: "https://example.org/episode.mp4", length: nil, mimeType: "video/mp4"),  // "0"
                Enclosure(url: "https://example.org/notes.pdf", length: nil, mimeType: nil),  // "-5", "pdf"
                Enclosure(url: "https://example.org/extra.ogg", length: nil, mimeType: nil),  // "12abc"
            ])  // no url → ignored; media:content with the same URL → kept once
        #expect(first.primaryEnclosure?.url == "https://example.org/episode.mp3")
        #expect(feed.episodes[1].primaryEnclosure?.url == "https://example.org/talk.m4a?download=1")
    }

    @Test func durations() throws {
        let feed = try Self.parse("durations.rss")
        #expect(feed.episodes.map(\.duration) == [3723, 3730, 45, 30.5, nil, nil])
        #expect(feed.warnings == ["item 5: unparseable itunes:duration \"about an hour\""])
    }

    @Test func dates() throws {
        let feed = try Self.parse("dates.rss")
        #expect(
            feed.episodes.map(\.published) == [
                Self.utc(2003, 6, 10, 4), Self.utc(2003, 6, 10, 8), Self.utc(2003, 6, 10, 2), nil, nil,
                Self.utc(2003, 6, 10), nil,
            ])
        #expect(
            feed.warnings == [
                "item 4: unparseable date \"sometime last week\"",
                "item 5: unparseable date \"Wed, 27 May 2020 34:50:00 -0400\"",
            ])
    }

    @Test func malformedXMLGivesWarningsAndWhatWasRecovered() throws {
        let feed = try Self.parse("malformed.rss")
        #expect(feed.isWellFormed == false)
        #expect(feed.channel.title == "Broken But Useful")
        #expect(feed.episodes.first?.guid == "m-1")
        #expect(feed.episodes.first?.enclosures.map(\.url) == ["https://example.org/m1.mp3"])
        #expect(feed.warnings.first == "XML error at line 11: Opening and ending tag mismatch: b line 11 and title")
        #expect(feed.warnings.count == 4)
    }

    @Test func duplicateGuidKeptOnceWithAWarning() throws {
        let feed = try Self.parse("duplicate-guid.rss")
        #expect(feed.episodes.map(\.title) == ["Original", "Other"])
        #expect(feed.warnings == ["duplicate guid \"same\" at item 3: kept the first occurrence only"])
    }

    @Test func atom10() throws {
        let feed = try Self.parse("atom.xml")
        #expect(feed.format == .atom)
        #expect(feed.channel.title == "Atom Cast")  // type="html" title, tags stripped
        #expect(feed.channel.link == "https://atom.example.com/")
        #expect(feed.channel.description == "Plain subtitle")
        #expect(feed.channel.imageURL == "https://atom.example.com/feed/icon.png")
        #expect(feed.channel.paymentURL == "https://pay.example.com/")
        let entry = feed.episodes[0]
        #expect(entry.guid == "urn:uuid:entry-1")
        #expect(entry.guidIsPermaLink == false)
        #expect(entry.link == "https://atom.example.com/feed/entries/1")
        #expect(
            entry.enclosures == [
                Enclosure(url: "https://atom.example.com/feed/media/1.mp3", length: 4096, mimeType: "audio/mpeg")
            ])
        #expect(entry.published == Self.utc(2024, 3, 1, 0, 30))  // published wins over updated
        #expect(entry.description == "Short & plain")
        #expect(entry.descriptionHTML == "<p>Hello <b>world</b> &amp; all</p><br/>")  // xhtml div unwrapped
        #expect(entry.duration == 1500)
        #expect(feed.episodes[1].published == Self.utc(2024, 1, 15, 8))
        #expect(feed.episodes[1].descriptionHTML == "<p>Escaped <i>HTML</i></p>")
        #expect(feed.episodes[1].description == "Escaped HTML")
    }

    @Test func atom03() throws {
        let feed = try Self.parse("atom03.xml")
        #expect(feed.format == .atom)
        #expect(feed.channel.description == "From 2004")
        #expect(feed.episodes[0].published == Self.utc(2004, 5, 1, 12))  // issued before modified
        #expect(feed.episodes[0].link == "http://old.example.com/1")
    }

    @Test func rss10() throws {
        let feed = try Self.parse("rdf.rdf")
        #expect(feed.format == .rdf)
        #expect(feed.channel.title == "RDF Site")  // not the textinput's title
        #expect(feed.channel.imageURL == "http://rdf.example.org/logo.png")
        #expect(feed.episodes.map(\.title) == ["RDF item"])
        #expect(feed.episodes[0].published == Self.utc(2002, 9, 1, 10))
    }

    @Test func namespacesTour() throws {
        let feed = try Self.parse("namespaces.rss")
        let c = feed.channel
        #expect(c.description == "Channel description")
        #expect(c.imageURL == "https://tour.example.org/cover.png")
        #expect(c.showType == "serial")
        #expect(c.newFeedURL == "https://new.example.org/feed.xml")
        #expect(c.ownerName == "Olive Owner" && c.ownerEmail == "olive@example.org")
        #expect(c.categories == [["Technology", "Podcasting"], ["Arts"]])
        #expect(c.keywords == ["tour", "namespaces", "xml"])
        #expect(c.podcastGUID == "c9b7e8e4-0000-4000-8000-000000000001")
        #expect(c.fundingURL == "https://fund.example.org/")
        #expect(c.locked == false)
        #expect(c.pagedFeedFirst == "https://tour.example.org/feed?page=1")
        #expect(c.pagedFeedNext == "https://tour.example.org/feed?page=2")
        #expect(c.paymentURL == "https://pay.example.org/")
        let e = feed.episodes[0]
        #expect(e.link == "https://tour.example.org/1")  // from the permalink guid
        #expect(e.episodeType == "bonus" && e.number == 7 && e.season == 2 && e.explicit == true)
        #expect(e.author == "Guest Host" && e.subtitle == "A subtitle")
        #expect(e.chaptersURL == "https://tour.example.org/1/chapters.json")
        #expect(
            e.transcripts == [
                Transcript(url: "https://tour.example.org/1.srt", mimeType: "application/srt", language: "en")
            ])
        #expect(
            e.persons == [
                Person(
                    name: "Pat Person", role: "guest", group: "cast", href: "https://p.example.org/",
                    img: "https://p.example.org/p.jpg"),
                Person(name: "Harriet Host", role: "host", group: "cast"),
            ])
        #expect(e.paymentURL == "https://pay.example.org/1")
        #expect(
            e.chapters == [
                Chapter(start: 0, title: "Intro"),
                Chapter(start: 330.25, title: "Main", href: "https://tour.example.org/main"),
            ])
        #expect(feed.warnings == ["item 1: psc:chapter without start or title ignored"])
    }

    @Test func notAFeedAndEmptyDocumentsThrow() throws {
        #expect(throws: FeedParseError.notAFeed(rootElement: "html")) { try Self.parse("not-a-feed.html") }
        #expect(throws: FeedParseError.emptyDocument) { try Self.parse("empty.xml") }
        #expect(throws: FeedParseError.emptyDocument) { try FeedParser.parse(bytes: [], baseURL: nil) }
        #expect(throws: FeedParseError.emptyDocument) { try FeedParser.parse(bytes: Array("  \n".utf8), baseURL: nil) }
        #expect(throws: FeedParseError.unreadable(details: ["XML error at line 1: Start tag expected, '<' not found"]))
        {
            try FeedParser.parse(bytes: Array("not xml at all".utf8), baseURL: nil)
        }
        #expect(
            FeedParseError.notAFeed(rootElement: "html").description
                == "not a feed: the root element is <html>, expected <rss>, <rdf:RDF> or <feed>")
    }

    @Test func garbageDoesNotCrash() throws {
        let inputs: [[UInt8]] = [
            Array("not xml at all".utf8), [0xFF, 0xFE, 0x00], [0x00, 0x00, 0x00, 0x00], Array("<rss".utf8),
            Array("<rss><channel><item><title>x".utf8), Array(repeating: UInt8(ascii: "<"), count: 1000),
            Array("<?xml version=\"1.0\"?><rss><channel>\u{0}</channel></rss>".utf8),
        ]
        for input in inputs {
            do {
                let feed = try FeedParser.parse(bytes: input, baseURL: nil)
                #expect(feed.isWellFormed == false)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test func dataAndURLOverload() throws {
        let data = try Data(contentsOf: TestData.fixtures.appendingPathComponent("relative-urls.rss"))
        let feed = try FeedParser.parse(data: data, url: URL(string: "https://feeds.example.com/dir/feed.xml"))
        #expect(feed.episodes[0].enclosures[0].url == "https://feeds.example.com/dir/media/1.ogg")
    }
}
