import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Every row of `../shared/corpus/dates.tsv` and `durations.tsv`.
@Suite(.enabled(if: TestData.hasCorpus, "../shared/corpus is absent (a user's clone): date/duration tables skipped"))
struct DateDurationTableTests {
    @Test func everyDateRow() throws {
        let rows = try TestData.table("dates.tsv")
        #expect(rows.count == 55)
        for row in rows {
            let (input, expected) = (row[0], row[1])
            let ours = DateParser.parseSeconds(input)
            if expected == "NONE" {
                #expect(ours == nil, "\(input.debugDescription) should be unknown, got \(String(describing: ours))")
            } else {
                let want = try #require(Self.isoSeconds(expected), "bad expectation \(expected)")
                #expect(
                    ours == want,
                    "\(input.debugDescription): got \(String(describing: ours)) want \(expected) (\(want))")
            }
        }
    }

    @Test func everyDurationRow() throws {
        let rows = try TestData.table("durations.tsv")
        #expect(rows.count == 18)
        for row in rows {
            let (input, expected) = (row[0], row[1])
            let ours = DurationParser.parse(input).map { Int($0) }
            if expected == "NONE" {
                #expect(ours == nil, "\(input.debugDescription) should be unknown, got \(String(describing: ours))")
            } else {
                #expect(
                    ours == Int(expected), "\(input.debugDescription): got \(String(describing: ours)) want \(expected)"
                )
            }
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` computed independently of `DateParser`, with Foundation's calendar.
    static func isoSeconds(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
        return calendar.date(from: components).map { Int64($0.timeIntervalSince1970) }
    }
}
