import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine

@Suite(.serialized) struct FileFetchTests {
    @Test func fileURLAndPlainPath() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("my feed.xml")
        try Data("<rss/>".utf8).write(to: URL(fileURLWithPath: path))
        let h = try FetchHarness()
        let byPath = try #require(h.fetch(FetchRequest(url: path))?.value)
        #expect(byPath.status == 200)
        #expect(byPath.body == Data("<rss/>".utf8))
        #expect(byPath.effectiveURL == path)
        let byURL = try #require(h.fetch(FetchRequest(url: URL(fileURLWithPath: path).absoluteString))?.value)
        #expect(byURL.body == Data("<rss/>".utf8))
        let lastModified = try #require(byURL.lastModified)
        let again = try #require(h.fetch(FetchRequest(url: path, lastModified: lastModified))?.value)
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
    }

    @Test func missingAndOversizeFiles() throws {
        let dir = TemporaryDirectory()
        let h = try FetchHarness()
        let missing = try #require(h.fetch(FetchRequest(url: dir.file("nope.xml")))?.error)
        #expect(missing.kind == .file)
        #expect(missing.message == "cannot read \(dir.file("nope.xml")): No such file or directory")
        let big = dir.file("big.xml")
        try Data(count: 2_000).write(to: URL(fileURLWithPath: big))
        let error = try #require(h.fetch(FetchRequest(url: big, limits: FetchLimits(maxResponseBytes: 1_000)))?.error)
        #expect(error.kind == .tooLarge(decoded: false))
        let directory = try #require(h.fetch(FetchRequest(url: "file://" + dir.path))?.error)
        #expect(directory.kind == .file)
    }

    @Test func httpDateFormat() {
        #expect(FileFetch.httpDate(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
