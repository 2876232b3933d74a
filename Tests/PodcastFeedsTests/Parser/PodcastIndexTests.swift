import Foundation
import Testing

@testable import PodcastFeeds

/// The Podcasting 2.0 elements beyond guid, funding, locked, persons, transcripts and chapters,
/// on feeds written from podcastindex.org's namespace documentation (the fixtures
/// `podcasting20-*.rss` hold whole feeds; these pin single rules and the limits).
struct PodcastIndexTests {
    static func parse(_ body: String, channel: String = "") throws -> ParsedFeed {
        try FeedParser.parse(
            bytes: Array(
                """
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>T</title>
                \(channel)<item><guid>1</guid>\(body)</item></channel></rss>
                """.utf8), baseURL: "https://example.com/feed.xml")
    }

    @Test func seasonAndEpisodeNamesAndNumbers() throws {
        let feed = try Self.parse(
            """
            <podcast:season name="Islands">3</podcast:season><podcast:episode display="Ep 7b">7</podcast:episode>
            """)
        let episode = try #require(feed.episodes.first)
        #expect(episode.season == 3)
        #expect(episode.seasonName == "Islands")
        #expect(episode.number == 7)
        #expect(episode.episodeDisplay == "Ep 7b")
    }

    @Test func itunesNumbersWinOverPodcastOnes() throws {
        let feed = try Self.parse(
            """
            <itunes:season xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">2</itunes:season>
            <podcast:season>5</podcast:season><podcast:episode>1.5</podcast:episode>
            """)
        #expect(feed.episodes.first?.season == 2)
        #expect(feed.episodes.first?.number == nil)
    }

    @Test func alternateEnclosureSourcesBelongToTheirEnclosure() throws {
        let feed = try Self.parse(
            """
            <podcast:alternateEnclosure type="audio/opus" bitrate="64000.5" default="TRUE">
            <podcast:source uri="a.opus"/><podcast:source uri="javascript:x"/></podcast:alternateEnclosure>
            <podcast:source uri="https://example.com/stray.mp3"/>
            <podcast:alternateEnclosure type="video/mp4" height="720"><podcast:source uri="v.mp4"/></podcast:alternateEnclosure>
            """)
        #expect(
            feed.episodes.first?.alternateEnclosures == [
                AlternateEnclosure(
                    mimeType: "audio/opus", bitrate: 64000.5, isDefault: true, sources: ["https://example.com/a.opus"]),
                AlternateEnclosure(mimeType: "video/mp4", height: 720, sources: ["https://example.com/v.mp4"]),
            ])
    }

    @Test func limitsCutCountsWithOneWarning() throws {
        let bites = (0..<70).map { "<podcast:soundbite startTime=\"\($0)\" duration=\"1\"/>" }.joined()
        let feed = try Self.parse(bites)
        #expect(feed.episodes.first?.soundbites.count == PodcastIndexLimits.soundbites)
        #expect(feed.episodes.first?.soundbites.last == Soundbite(start: 63, duration: 1))
        #expect(feed.warnings == ["more podcast:soundbite elements than the limit: the rest ignored"])
    }

    @Test func onlyHTTPURLsAreKept() throws {
        let feed = try Self.parse(
            """
            <podcast:chapters url="file:///etc/passwd"/><podcast:transcript url="data:text/plain,x" type="text/plain"/>
            <podcast:transcript url="t.vtt" type="text/vtt" rel="captions"/>
            """, channel: "<podcast:funding url=\"javascript:alert(1)\">x</podcast:funding>")
        #expect(feed.channel.fundingURL == nil)
        #expect(feed.episodes.first?.chaptersURL == nil)
        #expect(
            feed.episodes.first?.transcripts == [
                Transcript(url: "https://example.com/t.vtt", mimeType: "text/vtt", rel: "captions")
            ])
        #expect(feed.warnings == ["item 1: podcast:transcript without an http(s) url ignored"])
    }

    @Test func textIsCappedAndLosesControlCharacters() {
        #expect(FeedState.cappedText("  a\u{7}b \u{85} c\u{9B}31m  ") == "ab c31m")
        #expect(FeedState.cappedText(String(repeating: "é", count: 600)).count == PodcastIndexLimits.text)
    }

    @Test func updateFrequencyStatesAnInterval() {
        #expect(UpdateFrequency(rrule: "FREQ=WEEKLY;BYDAY=MO,TH").statedInterval == TimeInterval(302_400))
        #expect(UpdateFrequency(rrule: "freq=daily;interval=2").statedInterval == TimeInterval(172_800))
        #expect(UpdateFrequency(rrule: "FREQ=MONTHLY").statedInterval == TimeInterval(2_592_000))
        #expect(UpdateFrequency(rrule: "FREQ=SOMETIMES").statedInterval == nil)
        #expect(UpdateFrequency(text: "Weekly").statedInterval == nil)
    }

    @Test func namesLongerThanSixteenBytesAreFound() {
        let name = Array("alternateEnclosure".utf8) + [0]
        #expect(name.withUnsafeBufferPointer { FeedTag.from(cName: $0.baseAddress!) } == .alternateEnclosure)
    }
}
