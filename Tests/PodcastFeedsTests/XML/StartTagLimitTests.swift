import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// One start tag with 200,000 attributes held libxml2 for 36 s (its pairwise
/// attribute check cannot be interrupted); the linear pre-check refuses it first.
@Suite struct StartTagLimitTests {
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
