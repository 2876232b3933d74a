import Foundation
import Testing

@testable import PodcastFeeds

/// The date shapes feedparser accepts that real feeds use, and a 10-digit year that
/// used to crash the daemon. Expected instants were worked out independently (Python's `calendar.timegm`).
struct DateFormatSurveyTests {
    @Test(arguments: [
        // A space between the time and the zone (Ruby and PHP feeds).
        ("2004-07-08 23:56:58 -00:20", Int64(1_089_332_218)),
        ("2024-03-01 10:00:00 +0000", 1_709_287_200),
        ("2024-03-01 10:00:00 GMT", 1_709_287_200),
        ("2024-03-01 10:00:00 UTC", 1_709_287_200),
        ("2024-03-01 10:00:00 +01:00", 1_709_283_600),
        ("2024-03-01T10:00:00 EST", 1_709_305_200),
        ("2024-03-01 10:00:00 GMT+01:00", 1_709_283_600),
        // ISO 8601 ordinal dates and the basic (separator-free) forms.
        ("2003-335", 1_070_236_800),
        ("2004-035", 1_075_852_800),
        ("2004366", 1_104_451_200),
        ("20031231T235959Z", 1_072_915_199),
        ("20031231T1014", 1_072_865_640),
        ("20031231", 1_072_828_800),
        // asctime with a zone; ISO with a compact zone.
        ("Sun Jan  4 16:29:06 PST 2004", 1_073_262_546),
        ("2004-07-08T23:56:58+0000", 1_089_331_018),
        ("2004-07-08T23:56:58 Z", 1_089_331_018),
        // 12-hour clocks.
        ("Tue, 14 Nov 2023 9:30 PM GMT", 1_699_997_400),
        ("Mon, 01 Jan 2024 11:00 pm", 1_704_150_000),
        ("Mon, 01 Jan 2024 12:30 a.m.", 1_704_069_000),
        ("2003-12-31 10:14 PM", 1_072_908_840),
        // RFC 822 military zones feedparser reads, with RFC 822's signs (A = -0100, N = +0100).
        ("Fri, 01 Mar 2024 10:00:00 A", 1_709_290_800),
        ("Fri, 01 Mar 2024 10:00:00 N", 1_709_283_600),
        ("Fri, 01 Mar 2024 10:00:00 AST", 1_709_301_600),
        // Localised dates feedparser reads: Greek, Hungarian, Korean (KST).
        ("Κυρ, 11 Ιούλ 2004 12:00:00 EST", 1_089_565_200),
        ("2004-július-13T9:15-05:00", 1_089_728_100),
        ("2004년 05월 28일  01:31:15", 1_085_675_475),
        ("2004-05-25 오후 11:23:17", 1_085_494_997),
    ])
    func acceptedShapes(_ input: String, _ seconds: Int64) {
        #expect(DateParser.parseSeconds(input) == seconds, "\(input)")
    }

    @Test(arguments: [
        // A 10-digit year trapped in a force-unwrap and killed the daemon.
        "Mon, 01 Jan 1000000000 00:00:00 GMT",
        "Mon, 01 Jan 10000000000000000000000000 00:00:00 GMT",
        "1000000000 Jan 01",
        "01 1000000000 Jan",
        "Mon, 01 Jan 2004 99999999999:00:00 GMT",
        "Mon, 01 Jan 2004 10:00:00 +99999999999",
        "9999999999-01-01",
        "2004-01-9999999999",
        // Military letters feedparser does not read stay unknown.
        "Fri, 01 Mar 2024 10:00:00 E", "Fri, 01 Mar 2024 10:00:00 T",
        // Ordinal days out of range (2003 has 365 days).
        "2003-366", "2003-000", "2004-367",
        // 12-hour clock misuse, markers in the wrong place, trailing junk.
        "Mon, 01 Jan 2024 13:00 PM", "Mon, 01 Jan 2024 0:30 AM", "PM 10:00 1 Jan 2024", "Mon, 01 Jan 2024 PM",
        "2024-03-01 10:00:00 GMT junk", "2024-03-01 10:00:00 +0000 +0000", "2024-03-01 10:00:00 Mars",
        // Korean shapes with impossible fields.
        "2004년 13월 28일 01:31:15", "2004-05-25 오후 13:23:17", "04년 05월 28일 01:31:15",
        // A month name that is no month.
        "2004-Juliet-13T09:15Z", "11 Ιουνιουλ 2004",
    ])
    func rejectedShapesAreUnknown(_ input: String) {
        #expect(DateParser.parseSeconds(input) == nil, "\(input)")
    }

    /// A whole feed with the hostile date parses: the episode is kept, without a date.
    @Test func tenDigitYearInAFeedLeavesTheEpisodeUndated() throws {
        let xml = """
            <rss version="2.0"><channel><title>t</title><item><guid>a</guid><title>x</title>\
            <pubDate>Mon, 01 Jan 1000000000 00:00:00 GMT</pubDate></item></channel></rss>
            """
        let feed = try FeedParser.parse(bytes: Array(xml.utf8), baseURL: nil)
        #expect(feed.episodes.count == 1)
        #expect(feed.episodes[0].published == nil)
        #expect(feed.warnings.contains("item 1: unparseable date \"Mon, 01 Jan 1000000000 00:00:00 GMT\""))
    }
}
