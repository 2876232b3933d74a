import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Every input a fuzz target once crashed on (`Fuzz/Regressions/<target>/`, one file each) goes
/// through the same parser and the same invariants as in its fuzz target, in the ordinary suite.
/// A trap here is a crash of the test process, as it was of the daemon.
struct FuzzRegressionTests {
    static let folder = TestData.packageRoot.appendingPathComponent("Fuzz/Regressions")

    static func inputs(_ target: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? []
        return names.filter { $0 != "README" }.sorted().map { "\(target)/\($0)" }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        try TestData.bytes(folder.appendingPathComponent(path))
    }

    @Test func regressionsArePresent() {
        #expect(Self.inputs("date").contains("date/issue9-ten-digit-year"))
        #expect(Self.inputs("feed").contains("feed/issue9-ten-digit-year.rss"))
        #expect(Self.inputs("html").contains("html/javascript-in-text"))
        #expect(Self.inputs("html").contains("html/href-in-escaped-text"))
        #expect(Self.inputs("html").contains("html/control-char-in-scheme"))
        #expect(Self.inputs("html").contains("html/combining-mark-after-scheme"))
        #expect(Self.inputs("html").contains("html/href-text-inside-a-value"))
    }

    @Test(arguments: inputs("date"))
    func date(_ path: String) throws {
        let text = String(decoding: try Self.bytes(path), as: UTF8.self)
        if let seconds = DateParser.parseSeconds(text) {
            #expect(seconds >= -62_135_596_800 && seconds < 253_402_300_800)
        }
    }

    /// The fuzz target's seeds (`Fuzz/Seeds/<target>/`), as paths relative to `Fuzz/Regressions`.
    static func seeds(_ target: String) -> [String] {
        let folder = TestData.packageRoot.appendingPathComponent("Fuzz/Seeds/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { "../Seeds/\(target)/\($0)" }
    }

    /// No duration input ever crashed the target, so its regression folder is empty: the seeds
    /// (hostile ones among them) go through the same invariant, so this test always has cases.
    @Test(arguments: inputs("duration") + seeds("duration"))
    func duration(_ path: String) throws {
        if let seconds = DurationParser.parse(String(decoding: try Self.bytes(path), as: UTF8.self)) {
            #expect(seconds.isFinite && seconds >= 0)
        }
    }

    @Test func everyReplayHasCases() {
        #expect(Self.inputs("date").count + Self.seeds("date").count > 0)
        #expect(Self.inputs("duration").count + Self.seeds("duration").count >= 9)
        #expect(Self.inputs("feed").count > 0)
        #expect(Self.inputs("html").count > 0)
    }

    @Test(arguments: inputs("feed"))
    func feed(_ path: String) throws {
        guard let feed = try? FeedParser.parse(bytes: Self.bytes(path), baseURL: "http://example.com/dir/feed.xml")
        else { return }
        for episode in feed.episodes {
            #expect(episode.sanitizedDescriptionHTML?.lowercased().contains("<script") != true)
        }
    }

    @Test(arguments: inputs("html"))
    func html(_ path: String) throws {
        let safe = HTMLSanitizer.sanitize(String(decoding: try Self.bytes(path), as: UTF8.self))
        #expect(!safe.lowercased().contains("<script"))
        #expect(Self.urlAttributesAreSafe(safe.lowercased()), "\(safe.debugDescription)")
        #expect(HTMLSanitizer.sanitize(safe) == safe)
    }

    /// The fuzz target's check: every URL attribute in sanitiser output is http, https or mailto.
    static func urlAttributesAreSafe(_ html: String) -> Bool {
        // Sanitiser output: text never holds a raw `<`; inside a tag every value is double-quoted and
        // holds no raw `"`. So a tag is `<name`, then `name="value"` pairs, then `>`.
        let b = Array(html.utf8)
        var i = 0
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            while i < b.count, b[i] != UInt8(ascii: ">") {
                if b[i] == UInt8(ascii: "=") {
                    var nameStart = i
                    while nameStart > 0, b[nameStart - 1] != 0x20 { nameStart -= 1 }
                    let name = String(decoding: b[nameStart..<i], as: UTF8.self)
                    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: "\"") else { return false }
                    var end = i + 2
                    while end < b.count, b[end] != UInt8(ascii: "\"") { end += 1 }
                    let value = b[(i + 2)..<min(end, b.count)]
                    if ["href", "src", "poster", "cite"].contains(name),
                        !["http:", "https:", "mailto:"].contains(where: { value.starts(with: $0.utf8) })
                    {
                        return false
                    }
                    i = end
                }
                i += 1
            }
        }
        return true
    }
}
