import CLibeventBaseline
import Foundation
import PodcastFeeds

/// Case 7: `FeedParser` throughput on a generated feed and on the corpus feeds, against
/// libxml2's SAX parser with empty callbacks over the same bytes (the floor: we cannot parse
/// faster than the tokenizer we sit on).
enum FeedParsingBench {
    static func run(_ settings: RunSettings, corpusRoot: String) -> [Row] {
        let items = settings.size(3_000, quick: 150)
        let generated = generateFeed(items: items)
        let (ours, floor) = measurePair(
            runs: settings.runs, { parseGenerated(generated, items: items) },
            { floorOnce([generated], expectAtLeast: items * 13) })
        var rows = [
            Row(
                name: "7 FeedParser, generated feed", unit: "MB/s", better: .higher, value: ours,
                baselineName: "libxml2 SAX, empty callbacks", baseline: floor,
                target: ">= 60% of the libxml2 floor", met: ours.median >= 0.6 * floor.median,
                note: String(
                    format: "%.2f MB, %d items", Double(generated.count) / 1e6, items))
        ]
        let corpus = corpusFiles(root: corpusRoot)
        if corpus.isEmpty {
            rows.append(
                Row(
                    name: "7 FeedParser, corpus", unit: "MB/s", better: .higher, value: Stats(samples: []),
                    note: "corpus not found at \(corpusRoot); skipped"))
        } else {
            let (corpusOurs, corpusFloor) = measurePair(
                runs: settings.runs, { parseCorpus(corpus) }, { floorOnce(corpus) })
            let bytes = corpus.reduce(0) { $0 + $1.count }
            rows.append(
                Row(
                    name: "7 FeedParser, corpus feeds", unit: "MB/s", better: .higher, value: corpusOurs,
                    baselineName: "libxml2 SAX, empty callbacks", baseline: corpusFloor,
                    target: ">= 60% of the libxml2 floor", met: corpusOurs.median >= 0.6 * corpusFloor.median,
                    note:
                        "\(corpus.count) files, \(bytes) bytes, each parsed once per run (small files: per-document set-up dominates)"
                ))
        }
        return rows
    }

    static func parseGenerated(_ bytes: [UInt8], items: Int) -> Double {
        let start = nowNanoseconds()
        let feed = try? FeedParser.parse(bytes: bytes, baseURL: "http://example.invalid/feed.xml")
        let elapsed = nowNanoseconds() - start
        precondition(
            feed?.episodes.count == items,
            "the generated feed parsed to \(feed?.episodes.count ?? -1) items, expected \(items)")
        blackhole(feed?.episodes.count ?? 0)
        return megabytesPerSecond(bytes.count, elapsed)
    }

    static func parseCorpus(_ files: [[UInt8]]) -> Double {
        var total = 0
        var parsed = 0
        let start = nowNanoseconds()
        for file in files {
            total += file.count
            // Some corpus files are deliberately not feeds: rejecting them is part of the work.
            if let feed = try? FeedParser.parse(bytes: file, baseURL: "http://example.invalid/feed.xml") {
                parsed += feed.episodes.count
            }
        }
        let elapsed = nowNanoseconds() - start
        blackhole(parsed)
        return megabytesPerSecond(total, elapsed)
    }

    /// libxml2 SAX over every file; `expectAtLeast` elements checks that the floor parsed the
    /// whole document and did not stop at an error.
    static func floorOnce(_ files: [[UInt8]], expectAtLeast: Int = 0) -> Double {
        var total = 0
        var elements = 0
        let start = nowNanoseconds()
        for file in files {
            total += file.count
            elements += file.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    clb_sax_floor(chars.baseAddress, Int32(chars.count))
                }
            }
        }
        let elapsed = nowNanoseconds() - start
        precondition(
            elements >= expectAtLeast, "the libxml2 floor saw \(elements) elements, expected at least \(expectAtLeast)")
        blackhole(elements)
        return megabytesPerSecond(total, elapsed)
    }

    static func megabytesPerSecond(_ bytes: Int, _ nanoseconds: UInt64) -> Double {
        Double(bytes) / 1e6 / (Double(nanoseconds) / 1e9)
    }

    /// Every feed document of the corpus (podcastparser *.rss, feedparser *.xml, feedkit), sorted
    /// by path so runs are comparable.
    static func corpusFiles(root: String) -> [[UInt8]] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var paths: [String] = []
        for case let path as String in walker {
            if path.hasSuffix(".rss") || path.hasSuffix(".xml") || path.hasSuffix(".atom") || path.hasSuffix(".rdf") {
                paths.append(path)
            }
        }
        return paths.sorted().compactMap { path in
            FileManager.default.contents(atPath: root + "/" + path).map { [UInt8]($0) }
        }
    }

    /// A podcast feed of about 1.7 KB per item (about 5 MB at 3,000 items): iTunes tags, an
    /// enclosure, entity-escaped HTML show notes and a CDATA `content:encoded`, as real feeds have.
    static func generateFeed(items: Int) -> [UInt8] {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
            xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
            <title>The Generated Show</title>
            <link>https://example.invalid/show</link>
            <atom:link href="https://example.invalid/feed.xml" rel="self" type="application/rss+xml"/>
            <description>A feed generated for loop-bench.</description>
            <language>en-us</language>
            <itunes:author>Bench Author</itunes:author>
            <itunes:image href="https://example.invalid/cover.jpg"/>
            <itunes:category text="Technology"/>

            """
        let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        for index in 0..<items {
            let day = days[index % 7]
            let month = months[index % 12]
            let date =
                "\(day), \(String(format: "%02d", 1 + index % 28)) \(month) \(2000 + index % 24) 08:\(String(format: "%02d", index % 60)):00 +0000"
            text += """
                <item>
                <title>Episode \(index): on loops, schedulers &amp; the cost of a hop</title>
                <link>https://example.invalid/show/episodes/\(index)</link>
                <guid isPermaLink="false">generated-episode-\(index)-0f3a9c</guid>
                <pubDate>\(date)</pubDate>
                <enclosure url="https://cdn.example.invalid/audio/episode-\(index).mp3" length="\(30_000_000 + index)" type="audio/mpeg"/>
                <itunes:duration>\(index % 3):\(String(format: "%02d", index % 60)):\(String(format: "%02d", (index * 7) % 60))</itunes:duration>
                <itunes:episode>\(index)</itunes:episode>
                <itunes:explicit>false</itunes:explicit>
                <itunes:subtitle>Loops, schedulers and the price of a hop, measured on two cores against their floors.</itunes:subtitle>
                <itunes:summary>In episode \(index) we measure event loops against their floors, talk about medians, spreads and why ratios travel better than absolute times between machines.</itunes:summary>
                <description>&lt;p&gt;In episode \(index) we measure &lt;b&gt;event loops&lt;/b&gt; against raw libevent, look at coalescing view updates and count bytes per subscription.&lt;/p&gt;&lt;p&gt;Links: &lt;a href="https://example.invalid/notes/\(index)"&gt;show notes&lt;/a&gt; &amp;amp; transcript.&lt;/p&gt;</description>
                <content:encoded><![CDATA[<p>Full notes for episode \(index).</p><ul><li>Raw libevent re-activation</li><li>DispatchQueue.main hops</li><li>Publisher chains and their closure floor</li></ul><p>Recorded with two cores and a lot of patience. Music by nobody in particular.</p><h2>Chapters</h2><ol><li>00:00 Welcome and news</li><li>04:12 Why medians, not means</li><li>17:40 Warm-up runs and the spread</li><li>29:03 Baselines in the same process</li><li>41:55 Listener questions</li></ol><p>Thanks to everyone who wrote in about episode \(index &- 1); corrections are in the transcript.</p>]]></content:encoded>
                </item>

                """
        }
        text += "</channel>\n</rss>\n"
        return Array(text.utf8)
    }
}
