import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds

/// The daemon's parse (`FeedParsing.parse`) runs the start-tag guard before libxml2 sees a
/// document: a hostile start tag is refused whole, one at the limit parses.
@Suite struct FeedParsingGuardTests {
    @Test func hostileElementIsRefusedBeforeLibxml2SeesIt() throws {
        let hostile = TestFeeds.element(attributes: 200_000)
        #expect(hostile.count > 2_000_000)
        // Refused with the pre-check's own error (libxml2 reports nothing of the kind), so the
        // document never reached it.
        #expect(throws: DocumentRefused(.tooManyAttributes(limit: 256))) {
            try FeedParsing.parse(
                FetchResponse(status: 200, body: Data(hostile), requestedURL: "http://h/f", effectiveURL: "http://h/f"))
        }
        // Work counted, not time: the scan is one pass that stops at the end of the first tag
        // past the limit; a wider tag after it is never reached.
        let attributes = { (count: Int) in (0..<count).map { "a\($0)='x'" }.joined(separator: " ") }
        let twoTags = Array("<r><i \(attributes(300))/><i \(attributes(1_000))/></r>".utf8)
        #expect(StartTagLimit.maxAttributeCount(twoTags) == 1_000)
        #expect(StartTagLimit.maxAttributeCount(twoTags, stoppingAbove: 256) == 300)
        #expect(StartTagLimit.maxAttributeCount(hostile) == 200_000)
        #expect(
            "\(DocumentRefused(.tooManyAttributes(limit: 256)))" == "refused: an element has more than 256 attributes")
    }

    @Test func limitItselfIsAccepted() throws {
        #expect(throws: Never.self) { try StartTagLimit.check(TestFeeds.element(attributes: 256)) }
        #expect(throws: DocumentRefused.self) { try StartTagLimit.check(TestFeeds.element(attributes: 257)) }
        let feed = try FeedParsing.parse(
            FetchResponse(
                status: 200, body: Data(TestFeeds.element(attributes: 256)), requestedURL: "http://h/f",
                effectiveURL: "http://h/f"))
        #expect(feed.channel.title == "t")
    }
}
