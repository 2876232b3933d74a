import Foundation
import Testing

@testable import PodcastKit

/// Issue 9 item 3: one start tag with 200,000 attributes held libxml2 for 36 s (its pairwise
/// attribute check cannot be interrupted); the linear pre-check refuses it first.
@Suite struct StartTagLimitTests {
    static func element(attributes: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><item "
        text.reserveCapacity(attributes * 14)
        for i in 0..<attributes { text += "a\(i)=\"x\" " }
        text += "/></channel></rss>"
        return Array(text.utf8)
    }

    @Test func countsAttributesOfTheWidestStartTag() {
        #expect(StartTagLimit.maxAttributeCount(Array("<a x='1' y=\"2\"><b z='a=b'/></a>".utf8)) == 2)
        // `=` in text, comments, CDATA, processing instructions, declarations and end tags is no attribute.
        let noise =
            "<?xml version=\"1.0\" encoding='utf-8'?><!DOCTYPE rss [<!ENTITY e \"a=b\">]><!-- a=1 b=2 c=3 --><r k=\"v\">x=y<![CDATA[<q a=1 b=2 c=3>]]></r k=1>"
        #expect(StartTagLimit.maxAttributeCount(Array(noise.utf8)) == 1)
        // UTF-16: NUL bytes between ASCII characters are skipped.
        let utf16 = Array("<a p='1' q='2' r='3'/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(StartTagLimit.maxAttributeCount(utf16) == 3)
        // A stray '<' in text and runs of '=' are no attributes.
        let separator = String(repeating: "=", count: 1000)
        #expect(StartTagLimit.maxAttributeCount(Array("<d>a < b \(separator) c</d><e x='1' \(separator)/>".utf8)) == 1)
    }

    @Test func hostileElementIsRefusedBeforeLibxml2SeesIt() throws {
        let hostile = Self.element(attributes: 200_000)
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
        #expect(throws: Never.self) { try StartTagLimit.check(Self.element(attributes: 256)) }
        #expect(throws: DocumentRefused.self) { try StartTagLimit.check(Self.element(attributes: 257)) }
        let feed = try FeedParsing.parse(
            FetchResponse(
                status: 200, body: Data(Self.element(attributes: 256)), requestedURL: "http://h/f",
                effectiveURL: "http://h/f"))
        #expect(feed.channel.title == "t")
    }

    @Test func everyFixtureAndSampleFeedPasses() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let folders = [
            here.appendingPathComponent("Fixtures"),
            here.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Sources/podcast-watch/SampleFeeds"),
        ]
        var checked = 0
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
                #expect(StartTagLimit.maxAttributeCount(bytes) <= 40, "\(name)")
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    @Test(.enabled(if: TestData.hasCorpus, "the shared corpus is not next to this clone"))
    func noCorpusFeedComesNearTheLimit() throws {
        let corpus = try #require(TestData.corpus)
        var checked = 0
        for case let url as URL in FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil)!
        where !url.hasDirectoryPath {
            #expect(StartTagLimit.maxAttributeCount(try TestData.bytes(url)) <= 40, "\(url.lastPathComponent)")
            checked += 1
        }
        #expect(checked > 100)
    }
}
