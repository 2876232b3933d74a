import Testing

@testable import PodcastFeeds

/// The byte-level fast paths of the parser against the simple rules they replace.
struct ByteHelperTests {
    /// `squash` as a plain reference: ASCII whitespace runs become one space (a newline when
    /// kept and the run holds one), trimmed.
    private static func reference(_ text: String, keepNewlines: Bool) -> String {
        var out: [UInt8] = []
        var pendingSpace = false
        var pendingNewline = false
        for byte in text.utf8 {
            if isASCIISpace(byte) {
                if keepNewlines && (byte == 0x0A || byte == 0x0D) { pendingNewline = true } else { pendingSpace = true }
                continue
            }
            if !out.isEmpty {
                if pendingNewline { out.append(0x0A) } else if pendingSpace { out.append(0x20) }
            }
            pendingSpace = false
            pendingNewline = false
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func squashMatchesTheReferenceAcrossWordBoundaries() {
        // Whitespace placed at every offset around the 8-byte steps of the fast check.
        let fillers = ["", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmno", "abcdefghijklmnop"]
        let gaps = [" ", "  ", "\t", "\n", " \t", "\u{0B}", "\u{01}", "\u{A0}", "é "]
        var checked = 0
        for left in fillers {
            for gap in gaps {
                for right in fillers {
                    for text in [left + gap + right, "x" + left + gap + right + "y", gap + left, left + gap] {
                        #expect(
                            HTMLText.squash(text, keepNewlines: false) == Self.reference(text, keepNewlines: false),
                            "\(Array(text.utf8))")
                        #expect(
                            HTMLText.squash(text, keepNewlines: true) == Self.reference(text, keepNewlines: true),
                            "\(Array(text.utf8))")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 8 * 9 * 8 * 4)
        #expect(HTMLText.squash("one two three four five six", keepNewlines: false) == "one two three four five six")
        #expect(HTMLText.squash("one two three fo  ur five", keepNewlines: false) == "one two three fo ur five")
        #expect(HTMLText.squash("1234567 \t89", keepNewlines: false) == "1234567 89")
    }

    @Test(arguments: [
        ("42", 42 as Int?), ("+7", 7), ("-3", -3), ("007", 7), ("", nil), ("+", nil), ("-", nil), ("4 2", nil),
        ("1e3", nil), ("9223372036854775807", Int.max), ("9223372036854775808", nil), ("-9223372036854775808", Int.min),
    ])
    func integerReadsAsIntOfString(_ text: String, _ expected: Int?) {
        var copy = text
        let value = copy.withUTF8 { ASCIIBytes.integer($0) }
        #expect(value == expected)
        #expect(value == Int(text))
    }

    @Test func trimmedIfASCIIAndLowercasedComparison() {
        var text = " \t YeS\n"
        let trimmed = text.withUTF8 { ASCIIBytes.trimmedIfASCII($0).map { String(decoding: $0, as: UTF8.self) } }
        #expect(trimmed == "YeS")
        var nonASCII = " yés "
        #expect(nonASCII.withUTF8 { ASCIIBytes.trimmedIfASCII($0) } == nil)
        var word = "TrUe"
        #expect(word.withUTF8 { ASCIIBytes.equalsLowercased($0, "true") })
        var other = "tru"
        #expect(!other.withUTF8 { ASCIIBytes.equalsLowercased($0, "true") })
        var symbol = "@"  // 0x40 | 0x20 is 0x60 ('`'): only A-Z are folded
        #expect(!symbol.withUTF8 { ASCIIBytes.equalsLowercased($0, "`") })
    }

    @Test func textBufferAppendsGrowsAndEmpties() {
        let buffer = TextBuffer(capacity: 4)
        let chunk = Array("abcdefghij".utf8)
        for _ in 0..<5 { chunk.withUnsafeBufferPointer { buffer.append($0.baseAddress!, $0.count) } }
        buffer.append(UInt8(ascii: "!"))
        buffer.append(contentsOf: "&amp;".utf8)
        #expect(buffer.count == 56)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(repeating: "abcdefghij", count: 5) + "!&amp;")
        buffer.removeAll()
        #expect(buffer.isEmpty)
        buffer.append(contentsOf: "x".utf8)
        #expect(String(decoding: buffer.bytes, as: UTF8.self) == "x")
    }

    @Test func pooledConvertersStartFromTheInitialState() {
        // UTF-16 with a BOM: the byte order a converter learned must not leak into the next use.
        let little: [UInt8] = [0xFF, 0xFE, 0x41, 0x00]
        let big: [UInt8] = [0xFE, 0xFF, 0x00, 0x42]
        for _ in 0..<3 {
            #expect(little.withUnsafeBufferPointer { DocumentDecoder.transcode($0, from: "UTF-16") } == Array("A".utf8))
            #expect(big.withUnsafeBufferPointer { DocumentDecoder.transcode($0, from: "UTF-16") } == Array("B".utf8))
        }
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]
        for _ in 0..<3 {
            #expect(
                latin1.withUnsafeBufferPointer { DocumentDecoder.iconvTranscode($0, from: "ISO-8859-1") }
                    == Array("café".utf8))
        }
        // A stateful encoding (ISO-2022-JP) left mid-shift by a truncated input starts clean next time.
        let shifted: [UInt8] = [0x1B, 0x24, 0x42, 0x30, 0x21]  // ESC $ B, then 亜 (0x3021), no shift back
        #expect(
            shifted.withUnsafeBufferPointer { DocumentDecoder.transcode($0, from: "ISO-2022-JP") } == Array("亜".utf8))
        let ascii: [UInt8] = [0x30, 0x21]
        #expect(
            ascii.withUnsafeBufferPointer { DocumentDecoder.transcode($0, from: "ISO-2022-JP") } == Array("0!".utf8))
        #expect(ConverterPool.isPoolable("WINDOWS-1252"))
        #expect(!ConverterPool.isPoolable("utf-16"))
        #expect(latin1.withUnsafeBufferPointer { DocumentDecoder.transcode($0, from: "NO-SUCH-ENCODING") } == nil)
    }

    @Test func entityRepairWordsSpellTheirReferences() {
        func word(_ text: String) -> UInt32 {
            var value: UInt32 = 0
            for (index, byte) in text.utf8.enumerated() { value |= UInt32(byte) << (8 * UInt32(index)) }
            return value
        }
        #expect(EntityRepair.lessThan == word("&lt;"))
        #expect(EntityRepair.greaterThan == word("&gt;"))
        #expect(EntityRepair.ampersand == word("&amp"))
        var repair = EntityRepair()
        #expect(
            repair.repair(Array("<a>&lt;b&gt; &amp; &amp</a>".utf8)) == Array("<a>&lt;b&gt; &amp; &amp;amp</a>".utf8))
        #expect(repair.bareAmpersands == 1)
        var clean = EntityRepair()
        #expect(clean.repair(Array("<a>&lt;&gt;&amp;&quot;&#38;</a>".utf8)) == nil)
    }
}
