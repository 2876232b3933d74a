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
        let started = ContinuousClock.now
        #expect(throws: DocumentRefused(.tooManyAttributes(limit: 256))) {
            try FeedParsing.parse(
                FetchResponse(status: 200, body: Data(hostile), requestedURL: "http://h/f", effectiveURL: "http://h/f"))
        }
        // Linear: nowhere near the 36 s libxml2 took (generous for a debug build on a busy machine).
        #expect(ContinuousClock.now - started < .seconds(5))
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
