import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Smoke inputs from FeedKit (`../shared/corpus/feedkit/`): every file parses or is rejected
/// cleanly, with the item counts of the corpus README's table. We keep every item (also those
/// without guid, link or enclosure), so the counts are exact.
@Suite(.enabled(if: TestData.hasCorpus, "../shared/corpus is absent (a user's clone): FeedKit corpus skipped"))
struct FeedkitCorpusTests {
    /// (file, expected format or nil = rejected as not a feed, item count) — the README table.
    static let table: [(file: String, format: ParsedFeed.Format?, items: Int)] = [
        ("Atom + XHTML.xml", .atom, 1), ("Atom.xml", .atom, 1), ("AtomDC.xml", .atom, 1),
        ("AtomMedia.xml", .atom, 1), ("Content.xml", .rss, 1), ("FeedNotFound.xml", nil, 0),
        ("GeoRSSSimple.xml", .atom, 1), ("Media.xml", .rss, 1), ("RSS.xml", .rss, 2), ("RSSAtom.xml", .rss, 0),
        ("RSSDC.xml", .rss, 1), ("Syndication.xml", .rss, 0), ("YouTube.xml", .atom, 2), ("iTunes.xml", .rss, 1),
    ]

    static func load(_ file: String) throws -> [UInt8] {
        try TestData.bytes(TestData.corpus!.appendingPathComponent("feedkit").appendingPathComponent(file))
    }

    @Test func tableCoversEveryFile() throws {
        let files = try FileManager.default.contentsOfDirectory(
            atPath: TestData.corpus!.appendingPathComponent("feedkit").path
        )
        .filter { $0.hasSuffix(".xml") }.sorted()
        #expect(files == Self.table.map(\.file).sorted())
    }

    @Test(arguments: table.map(\.file))
    func parsesOrRejects(_ file: String) throws {
        let row = Self.table.first { $0.file == file }!
        let bytes = try Self.load(file)
        if let format = row.format {
            let feed = try FeedParser.parse(bytes: bytes, baseURL: "http://feedkit.test/feed.xml")
            #expect(feed.format == format)
            #expect(feed.episodes.count == row.items)
        } else {
            #expect(throws: FeedParseError.notAFeed(rootElement: "element")) {
                try FeedParser.parse(bytes: bytes, baseURL: nil)
            }
        }
    }

    @Test func itemsWithIdentityComeBack() throws {
        let rss = try FeedParser.parse(bytes: Self.load("RSS.xml"), baseURL: nil)
        #expect(
            rss.episodes.map(\.guid) == ["tag:dallas.example.com,4131:news", "http://dallas.example.com/item/1234"])
        #expect(rss.episodes.map(\.guidIsPermaLink) == [false, true])
        #expect(
            rss.episodes.map(\.link) == Array(repeating: "http://dallas.example.com/1991/05/02/nolan.htm", count: 2))
        #expect(
            rss.episodes[0].enclosures == [
                Enclosure(
                    url: "http://dallas.example.com/joebob_050689.mp3", length: 24_986_239, mimeType: "audio/mpeg")
            ])
        // "Fri, 05 Oct 2007 09:00:00 CST" = 15:00 UTC
        #expect(rss.episodes[0].published == Date(timeIntervalSince1970: 1_191_596_400))

        let atom = try FeedParser.parse(bytes: Self.load("Atom.xml"), baseURL: nil)
        #expect(atom.episodes[0].guid == "tag:example.org,2003:3.2397")
        #expect(atom.episodes[0].link == "http://example.org/2005/04/02/atom")
        #expect(
            atom.episodes[0].enclosures == [
                Enclosure(url: "http://example.org/audio/ph34r_my_podcast.mp3", length: 1337, mimeType: "audio/mpeg")
            ])

        let mediaURLs = [
            "http://www.foo.com/song64kbps.mp3", "http://www.foo.com/song.wav", "http://www.foo.com/video.mov",
            "http://www.foo.com/movie.mov",
        ]
        for file in ["Media.xml", "AtomMedia.xml"] {
            let feed = try FeedParser.parse(bytes: Self.load(file), baseURL: nil)
            #expect(feed.episodes[0].enclosures.map(\.url) == mediaURLs, "\(file)")
            #expect(feed.episodes[0].primaryEnclosure?.url == "http://www.foo.com/song64kbps.mp3", "\(file)")
        }
        // AtomMedia uses undeclared dcterms:/georss:/gml: prefixes: recovered, but flagged.
        #expect(try FeedParser.parse(bytes: Self.load("AtomMedia.xml"), baseURL: nil).isWellFormed == false)
    }

    @Test func itunesFields() throws {
        let feed = try FeedParser.parse(bytes: Self.load("iTunes.xml"), baseURL: nil)
        #expect(feed.episodes[0].duration == 18030)
        #expect(feed.channel.description?.hasPrefix("In \"Hardcore History\"") == true)
    }
}
