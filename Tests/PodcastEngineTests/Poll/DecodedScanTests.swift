import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// The start-tag limit guards what libxml2 parses, not what came over the wire: a UTF-7 or
/// EBCDIC feed shows no `<` to a scan of its raw bytes, an internal DTD subset adds attribute
/// defaults to every start tag of an element, and a quoted `<!--` in a declaration must not hide
/// the tags after it. And a cancelled parse ends within one input read, even in a stretch where
/// libxml2 makes no SAX call. (The web import's OPML: `WebImportStartTagLimitTests`.)
@Suite struct DecodedScanTests {
    /// `count` attributes on one `<item>`, written with `<` and `>` as UTF-7 would (`+ADw-`,
    /// `+AD4-`): plain ASCII on the wire with no markup a byte scan can see.
    static func utf7Feed(attributes count: Int) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n"
        text += "+ADw-rss version=\"2.0\"+AD4APA-channel+AD4APA-title+AD4-t+ADw-/title+AD4APA-item"
        for i in 0..<count { text += " a\(i)=\"x\"" }
        text += "/+AD4APA-/channel+AD4APA-/rss+AD4-\n"
        return Array(text.utf8)
    }

    /// `text` in EBCDIC code page 037, through glibc's iconv.
    static func ebcdic(_ text: String) throws -> [UInt8] {
        let converter = iconv_open("IBM037", "UTF-8")
        try #require(converter != iconv_t(bitPattern: -1))
        defer { iconv_close(converter) }
        var input = Array(text.utf8)
        var output = [UInt8](repeating: 0, count: input.count * 2)
        let written = input.withUnsafeMutableBytes { inRaw -> Int in
            output.withUnsafeMutableBytes { outRaw -> Int in
                var inPointer = inRaw.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inLeft = inRaw.count
                var outPointer = outRaw.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = outRaw.count
                _ = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                return outRaw.count - outLeft
            }
        }
        return Array(output[0..<written])
    }

    static func response(_ bytes: [UInt8], contentType: String? = nil) -> FetchResponse {
        FetchResponse(
            status: 200, headers: contentType.map { ["content-type": $0] } ?? [:], body: Data(bytes),
            requestedURL: "http://h/f", effectiveURL: "http://h/f")
    }

    static let refusal = DocumentRefused(.tooManyAttributes(limit: StartTagLimit.maxAttributes))

    @Test func aUTF7FeedIsMeasuredAfterDecoding() throws {
        let hostile = Self.utf7Feed(attributes: 300)
        #expect(StartTagLimit.maxAttributeCount(hostile) == 0)  // the wire shows no start tag at all
        #expect(throws: Self.refusal) { try FeedParsing.parse(Self.response(hostile)) }
        #expect(throws: FeedParseError.refused(Self.refusal)) { try FeedParser.parse(bytes: hostile, baseURL: nil) }
        // The same feed under the limit is read: the decoding itself works.
        let fine = try FeedParsing.parse(Self.response(Self.utf7Feed(attributes: 3)))
        #expect(fine.channel.title == "t")
        #expect(fine.encoding == "UTF-7")
    }

    @Test func anEBCDICFeedNamedByTheHTTPCharsetIsMeasuredAfterDecoding() throws {
        let attributes = (0..<300).map { " a\($0)=\"x\"" }.joined()
        let hostile = try Self.ebcdic(
            "<rss version=\"2.0\"><channel><title>t</title><item\(attributes)/></channel></rss>")
        #expect(StartTagLimit.maxAttributeCount(hostile) == 0)  // 0x4C, not 0x3C, is its '<'
        #expect(throws: Self.refusal) {
            try FeedParsing.parse(Self.response(hostile, contentType: "application/rss+xml; charset=IBM037"))
        }
        let fine = try FeedParsing.parse(
            Self.response(
                try Self.ebcdic("<rss version=\"2.0\"><channel><title>t</title></channel></rss>"),
                contentType: "application/rss+xml; charset=IBM037"))
        #expect(fine.channel.title == "t")
    }

    /// libxml2 applies an ATTLIST's defaults to each start tag of the element, pairwise-checked
    /// inside the tag: they count as its attributes.
    @Test func attributeDefaultsOfAnInternalSubsetCountAsAttributes() throws {
        func feed(defaults: Int, explicit: Int = 0) -> [UInt8] {
            let declared = (0..<defaults).map { " d\($0) CDATA \"x\"" }.joined()
            let written = (0..<explicit).map { " e\($0)='y'" }.joined()
            return Array(
                "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ATTLIST item\(declared)>]><rss version=\"2.0\"><channel><title>t</title><item\(written)/><item/></channel></rss>"
                    .utf8)
        }
        #expect(StartTagLimit.maxAttributeCount(feed(defaults: 300)) == 300)
        #expect(throws: Self.refusal) { try FeedParsing.parse(Self.response(feed(defaults: 300))) }
        // Defaults add to what the tag writes, per element name only.
        #expect(StartTagLimit.maxAttributeCount(feed(defaults: 200, explicit: 100)) == 300)
        #expect(StartTagLimit.maxAttributeCount(feed(defaults: 10, explicit: 2)) == 12)
        // #IMPLIED / #REQUIRED have no default, enumerations are no values, namespace defaults count as both.
        let mixed = Array(
            "<!DOCTYPE rss [<!ATTLIST item a CDATA #IMPLIED b (x|y) 'x' c CDATA #FIXED \"z\" xmlns:q CDATA 'urn:q' d NMTOKEN #REQUIRED><!ATTLIST item e CDATA 'w'>]><rss><item/></rss>"
                .utf8)
        #expect(StartTagLimit.measure(mixed) == .init(maxAttributes: 4, namespaceWork: 0))
        // Within the limit the defaults reach the parser's callbacks as libxml2 adds them.
        #expect(try FeedParsing.parse(Self.response(feed(defaults: 10))).episodes.count == 2)
    }

    /// A quoted `>` or `<!--` inside a declaration ends nothing: the scan reads the subset as
    /// libxml2 does, so the 300 attributes after it are seen.
    @Test func quotedMarkupInTheDoctypeHidesNoStartTag() {
        let attributes = (0..<300).map { " a\($0)='x'" }.joined()
        let hiding = [
            "<!DOCTYPE rss [<!ENTITY e \"a>b<!--\">]><rss\(attributes)><channel/></rss>-->",
            "<!DOCTYPE rss SYSTEM \"x>y<!--\"><rss\(attributes)/>-->",
            "<!DOCTYPE rss [<!-- ]> --><?pi ]> <!-- ?><!ELEMENT rss ANY>]><rss\(attributes)/>",
            // A start tag inside the subset ends it: libxml2 parses that tag as the root.
            "<!DOCTYPE rss [ <rss\(attributes)/> ]>",
        ]
        for text in hiding {
            #expect(StartTagLimit.maxAttributeCount(Array(text.utf8)) == 300, "\(text.prefix(40))")
            #expect(throws: FeedParseError.refused(Self.refusal)) {
                try FeedParser.parse(bytes: Array(text.utf8), baseURL: nil)
            }
        }
        // An ordinary internal subset (entity declarations, a comment) costs nothing.
        let ordinary =
            "<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY nbsp \"&#160;\"><!-- x=1 y=2 -->]><rss version=\"2.0\"><channel/></rss>"
        #expect(StartTagLimit.measure(Array(ordinary.utf8)) == .init(maxAttributes: 1, namespaceWork: 0))
    }

    /// A handler that cancels the parse at the first element start.
    final class CancelAtRoot: XMLReaderHandler {
        let token: ParseCancellation
        var starts = 0
        init(token: ParseCancellation) { self.token = token }
        override func startElement(_ element: XMLStartElement) {
            starts += 1
            token.cancel()
        }
    }

    /// After the cancel, libxml2 meets a 4 MiB comment (no SAX event in it) and then a broken
    /// tag. It used to read the whole comment and report the tag; now its next input read gets
    /// end of input, so it reads at most a few KiB more.
    @Test func aCancelledParseStopsWithinOneReadWhereNoCallbackComes() {
        let comment = "<!--" + String(repeating: "x", count: 4 << 20) + "-->"
        let document = Array(("<rss version=\"2.0\">" + comment + "<bogus<</rss>").utf8)
        let token = ParseCancellation()
        let handler = CancelAtRoot(token: token)
        let outcome = XMLReader.parse(document, handler: handler, cancellation: token)
        #expect(outcome.stopped)
        #expect(handler.starts == 1)
        // libxml2 never reached the broken tag (it used to: "error parsing attribute name").
        #expect(!outcome.messages.contains { $0.contains("attribute") }, "\(outcome.messages)")
        #expect(outcome.bytesRead < 64 * 1024, "read \(outcome.bytesRead) of \(document.count) bytes")
        // Not cancelled, the same document is read to its end (and the broken tag reported).
        let whole = XMLReader.parse(document, handler: XMLReaderHandler(), cancellation: ParseCancellation())
        #expect(!whole.stopped)
        #expect(whole.bytesRead == document.count)
        #expect(whole.messages.contains { $0.contains("bogus") })
    }
}
