import Testing

@testable import PodcastFeeds

/// The table decoder for the Latin-1 family must give exactly what glibc's iconv gives (it
/// replaced iconv for these encodings; the corpus acceptance tests rely on the same text).
struct SingleByteDecodingTests {
    @Test(arguments: ["ISO-8859-1", "WINDOWS-1252", "US-ASCII"])
    func everyByteAsIconvReadsIt(encoding: String) throws {
        let table = try #require(SingleByteDecoding(canonicalName: encoding))
        for value in 0...255 {
            let byte: [UInt8] = [UInt8(value)]
            let ours = byte.withUnsafeBufferPointer { table.decode($0) }
            let iconv = byte.withUnsafeBufferPointer { DocumentDecoder.iconvTranscode($0, from: encoding) }
            #expect(ours == iconv, "byte 0x\(String(value, radix: 16)) in \(encoding)")
        }
        // A whole buffer: every byte in order, twice, with ASCII runs longer than a word between.
        var all: [UInt8] = []
        for value in 0...255 { all += [UInt8(value)] + Array("plain text".utf8) }
        all += all
        let ours = all.withUnsafeBufferPointer { table.decode($0) }
        #expect(ours == all.withUnsafeBufferPointer { DocumentDecoder.iconvTranscode($0, from: encoding) })
    }

    @Test func exactValues() throws {
        let windows = try #require(SingleByteDecoding(canonicalName: "WINDOWS-1252"))
        let text: [UInt8] = [0x93, 0x42, 0x72, 0xF8, 0x6E, 0x64, 0x62, 0x79, 0x94, 0x20, 0x80, 0x81]
        #expect(
            String(decoding: text.withUnsafeBufferPointer { windows.decode($0) }, as: UTF8.self)
                == "“Brøndby” €\u{FFFD}")
        let ascii = try #require(SingleByteDecoding(canonicalName: "US-ASCII"))
        #expect(
            String(decoding: text.withUnsafeBufferPointer { ascii.decode($0) }, as: UTF8.self)
                == "\u{FFFD}Br\u{FFFD}ndby\u{FFFD} \u{FFFD}\u{FFFD}")
        let latin1 = try #require(SingleByteDecoding(canonicalName: "ISO-8859-1"))
        #expect(
            String(decoding: text.withUnsafeBufferPointer { latin1.decode($0) }, as: UTF8.self)
                == "\u{93}Brøndby\u{94} \u{80}\u{81}")
        #expect(Array("plain".utf8).withUnsafeBufferPointer { latin1.decode($0) } == Array("plain".utf8))
        #expect(SingleByteDecoding(canonicalName: "UTF-8") == nil)
        #expect(SingleByteDecoding(canonicalName: "ISO-8859-7") == nil)
    }
}
