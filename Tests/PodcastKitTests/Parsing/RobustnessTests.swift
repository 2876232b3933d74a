import Foundation
import Testing
@testable import PodcastKit

/// Bad input gets a clear error or a degraded result, never a crash or a hang: every fixture,
/// cut at many lengths and with bytes corrupted by a fixed pseudo-random sequence.
struct RobustnessTests {
    static func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: TestData.fixtures.path).sorted()
    }

    /// Parses and only checks that the outcome is one of the two allowed shapes.
    static func survive(_ bytes: [UInt8]) -> Bool {
        do {
            let feed = try FeedParser.parse(bytes: bytes, baseURL: "https://example.org/feed.xml")
            return feed.episodes.count >= 0
        } catch {
            return !error.description.isEmpty
        }
    }

    @Test func truncatedAtEveryFifthByte() throws {
        for file in try Self.files() {
            let bytes = try TestData.fixture(file)
            for length in stride(from: 0, through: bytes.count, by: 5) {
                #expect(Self.survive(Array(bytes.prefix(length))), "\(file) cut at \(length)")
            }
        }
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
            for _ in 0..<40 {
                var bytes = original
                for _ in 0..<(1 + Int(next() % 6)) {
                    let index = Int(next() % UInt64(bytes.count))
                    bytes[index] = specials[Int(next() % UInt64(specials.count))]
                }
                #expect(Self.survive(bytes), "\(file) corrupted")
                _ = try? OPML.parse(bytes: bytes)
            }
        }
    }
}
