import Foundation
import Testing

@testable import PodcastFeeds

/// Rules of the two hand-written parsers, independent of the shared tables.
struct DateAndDurationParserTests {
    @Test(arguments: [
        ("Tue, 10 Jun 2003 04:00:00 GMT", Int64(1_055_217_600)),
        ("Tue, 10 Jun 2003 04:00:00 +0200", 1_055_210_400),
        ("10 Jun 2003 04:00 EDT", 1_055_232_000),
        ("Di, 10 Jun 2003 04:00:00 GMT", 1_055_217_600),  // unknown weekday skipped
        ("2003-06-10T04:00:00Z", 1_055_217_600),
        ("2003-06-10T04:00:00.999+00:00", 1_055_217_600),
        ("2003-06-10", 1_055_203_200),
        ("1969-12-31T23:59:59Z", -1),
        ("Sat, 29 Feb 2020 12:00:00 GMT", 1_582_977_600),
    ])
    func validDates(_ input: String, _ seconds: Int64) {
        #expect(DateParser.parseSeconds(input) == seconds)
        #expect(DateParser.parse(input) == Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test(arguments: [
        "", "   ", "now", "yesterday", "Sat, 29 Feb 2019 12:00:00 GMT", "2003-13-01", "2003-06-10T24:00:00Z",
        "Tue, 10 Jun 2003 04:60:00 GMT", "Tue, 10 Foo 2003", "2003-06-10T04:00:00+25:00", "10 Jun",
    ])
    func invalidDatesAreUnknown(_ input: String) {
        #expect(DateParser.parse(input) == nil)
    }

    @Test(arguments: [
        ("0", 0.0), ("45", 45), ("5:09", 309), ("61:08", 3668), ("1:20:25", 4825), (" 01:00:00 ", 3600),
        ("01:02:03.500", 3723.5), ("12.75", 12.75),
    ])
    func validDurations(_ input: String, _ seconds: Double) {
        #expect(DurationParser.parse(input) == seconds)
    }

    @Test(arguments: ["", " ", "o1:15:15", "1:2:3:4", "-5", "1::2", ":30", "1:30:", "an hour", "1.2.3"])
    func invalidDurationsAreUnknown(_ input: String) {
        #expect(DurationParser.parse(input) == nil)
    }
}
