import Foundation
import Testing

@testable import PodcastFeeds

/// Mostly-UTF-8 documents with stray single-byte characters are repaired per run.
struct MixedEncodingTests {
    /// A feed whose titles are UTF-8 ("Brøndby", "Ærø") but whose last title has a stray Latin-1
    /// `é` (0xE9), under `declaration`.
    static func document(declaration: String) -> [UInt8] {
        var bytes = Array("\(declaration)<rss version=\"2.0\"><channel><title>Brøndby Radio</title>".utf8)
        bytes += Array("<item><guid>1</guid><title>Ærø på tur</title></item>".utf8)
        bytes += Array("<item><guid>2</guid><title>Caf".utf8) + [0xE9] + Array(" – Brøndby</title></item>".utf8)
        bytes +=
            Array("<item><guid>3</guid><title>".utf8) + [0x93, 0x51, 0x94]
            + Array("</title></item></channel></rss>".utf8)
        return bytes
    }

    @Test(arguments: [
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", true),
        ("<?xml version=\"1.0\" encoding=\"windows-1252\"?>", true),
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", false),
        ("<?xml version=\"1.0\"?>", false),
        ("", false),
    ])
    func eachRunReadsAsWhatItIs(_ declaration: String, _ labelAllowsEveryByte: Bool) throws {
        let feed = try FeedParser.parse(bytes: Self.document(declaration: declaration), baseURL: nil)
        #expect(feed.channel.title == "Brøndby Radio")
        #expect(feed.episodes.map(\.title) == ["Ærø på tur", "Café – Brøndby", "\u{201C}Q\u{201D}"])
        #expect(feed.repairedEncoding)
        #expect(feed.encoding == "UTF-8")
        #expect(feed.isWellFormed == labelAllowsEveryByte)
        #expect(
            feed.warnings.contains { $0.hasPrefix("mixed encodings") && $0.hasSuffix("3 stray bytes as windows-1252") })
    }

    /// Real Latin-1 (no valid UTF-8 sequence at all) is still decoded whole, not "repaired".
    @Test func realLatin1IsNotARepair() throws {
        let bytes =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>Caf".utf8)
            + [0xE9, 0x20, 0xBD] + Array("</title></channel></rss>".utf8)
        let feed = try FeedParser.parse(bytes: bytes, baseURL: nil)
        #expect(feed.channel.title == "Café ½")
        #expect(!feed.repairedEncoding)
        #expect(feed.encoding == "ISO-8859-1")
        #expect(feed.isWellFormed)
    }

    /// Clean UTF-8 is neither repaired nor copied.
    @Test func cleanUTF8IsNotRepaired() throws {
        let feed = try FeedParser.parse(
            bytes: Array("<rss><channel><title>Brøndby</title></channel></rss>".utf8), baseURL: nil)
        #expect(feed.channel.title == "Brøndby")
        #expect(!feed.repairedEncoding)
        #expect(feed.isWellFormed)
    }

    @Test func repairRules() {
        // Two valid sequences and one stray byte: repaired; the undefined 0x81 becomes U+FFFD.
        let input: [UInt8] = Array("ø".utf8) + [0x81] + Array("é".utf8)
        let repaired = input.withUnsafeBufferPointer { UTF8Check.mixedRepair($0) }
        #expect(repaired.map { String(decoding: $0.bytes, as: UTF8.self) } == "ø\u{FFFD}é")
        #expect(repaired?.strayBytes == 1)
        // More stray bytes than UTF-8 sequences: not mostly UTF-8, no per-run repair.
        let latin: [UInt8] = [0xE9, 0xE8] + Array("ø".utf8)
        #expect(latin.withUnsafeBufferPointer { UTF8Check.mixedRepair($0) } == nil)
    }

    /// The count's early exit stops only when the rest cannot make the text mostly UTF-8, and
    /// starting from the validation's first bad byte gives the same repair as a full scan.
    @Test func repairCountStopsOnlyWhenTheRestCannotWin() {
        // Two stray bytes first, then enough UTF-8 after them: still repaired.
        let late: [UInt8] = [0xE9, 0xE8] + Array("abc ø é å".utf8)
        let full = late.withUnsafeBufferPointer { UTF8Check.mixedRepair($0) }
        #expect(full.map { String(decoding: $0.bytes, as: UTF8.self) } == "éèabc ø é å")
        #expect(full?.strayBytes == 2)
        let fromFirstBad = late.withUnsafeBufferPointer { UTF8Check.mixedRepair($0, firstInvalid: 0) }
        #expect(fromFirstBad?.bytes == full?.bytes)
        // Three stray bytes with room for only one more sequence after them: not mostly UTF-8.
        let lost: [UInt8] = Array("ø".utf8) + [0xE9, 0xE8, 0xE7] + Array("é".utf8)
        #expect(lost.withUnsafeBufferPointer { UTF8Check.mixedRepair($0, firstInvalid: 2) } == nil)
        // Valid UTF-8 has nothing to repair.
        #expect(Array("ø é".utf8).withUnsafeBufferPointer { UTF8Check.mixedRepair($0) } == nil)
    }
}
