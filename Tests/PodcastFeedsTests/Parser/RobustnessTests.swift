import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// Bad input gets a clear error or a degraded result, never a crash or a hang: every fixture,
/// cut at many lengths and with bytes corrupted by a fixed pseudo-random sequence.
struct RobustnessTests {
    static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: TestData.fixtures.path).sorted()
    }

    /// The parse outcome: a feed, or the error's text (never empty).
    static func parse(_ bytes: [UInt8]) -> Result<ParsedFeed, FeedParseError> {
        Result { () throws(FeedParseError) in
            try FeedParser.parse(bytes: bytes, baseURL: "https://example.org/feed.xml")
        }
    }

    /// How many item/entry start tags the bytes hold (as UTF-8 text).
    static func itemTags(_ bytes: [UInt8]) -> Int {
        let text = String(decoding: bytes, as: UTF8.self)
        return ["<item", "<entry", "<rss:item"].map { text.components(separatedBy: $0).count - 1 }.reduce(0, +)
    }

    @Test func truncatedAtEveryFifthByte() throws {
        var degraded = 0
        for file in try Self.files() {
            let bytes = try TestData.fixture(file)
            guard case .success(let full) = Self.parse(bytes) else { continue }
            let fullGuids = Set(full.episodes.compactMap(\.guid))
            for length in stride(from: 0, through: bytes.count, by: 5) {
                switch Self.parse(Array(bytes.prefix(length))) {
                case .failure(let error):
                    #expect(!error.description.isEmpty, "\(file) cut at \(length)")
                case .success(let cut):
                    // What a cut document yields is a subset of the whole document's episodes
                    // (by guid): nothing invented, renamed or duplicated by the recovery.
                    let guids = cut.episodes.compactMap(\.guid)
                    #expect(
                        Set(guids).isSubset(of: fullGuids),
                        "\(file) cut at \(length): \(Set(guids).subtracting(fullGuids))")
                    #expect(
                        Set(guids).count == guids.count
                            || Set(full.episodes.compactMap(\.guid)).count < full.episodes.compactMap(\.guid).count,
                        "\(file) cut at \(length): duplicated guids")
                    #expect(cut.episodes.count <= full.episodes.count, "\(file) cut at \(length)")
                    if !cut.isWellFormed { degraded += 1 }
                }
            }
        }
        #expect(degraded > 0)  // the recovery path really ran
    }

    @Test func corruptedBytes() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return seed >> 33
        }
        let specials: [UInt8] = Array("<>&;\"'/:=![]?#x".utf8) + [0x00, 0x80, 0xC2, 0xFF, 0xFE, 0xEF]
        for file in try Self.files() {
            let original = try TestData.fixture(file)
            guard !original.isEmpty else { continue }
            // Corruption can break items, not make new ones (UTF-16 fixtures hide their tags
            // from the byte count, hence the original parse as the other bound).
            let bound = max((try? Self.parse(original).get())?.episodes.count ?? 0, Self.itemTags(original))
            for _ in 0..<40 {
                var bytes = original
                for _ in 0..<(1 + Int(next() % 6)) {
                    let index = Int(next() % UInt64(bytes.count))
                    bytes[index] = specials[Int(next() % UInt64(specials.count))]
                }
                switch Self.parse(bytes) {
                case .failure(let error): #expect(!error.description.isEmpty, "\(file) corrupted")
                case .success(let feed): #expect(feed.episodes.count <= bound, "\(file) corrupted: phantom episodes")
                }
                _ = try? OPML.parse(bytes: bytes)
            }
        }
    }
}
