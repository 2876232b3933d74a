import Foundation
import Testing

@testable import PodcastFeeds

/// A parse past its budget is stopped inside libxml2 (`xmlStopParser` from the
/// SAX callbacks), and nested namespace declarations are measured before libxml2 runs.
@Suite struct ParseStopTests {
    /// `depth` nested elements, each declaring `perLevel` namespaces of its own.
    static func nestedNamespaces(depth: Int, perLevel: Int) -> [UInt8] {
        var text = "<rss version=\"2.0\"><channel>"
        for level in 0..<depth {
            text += "<x\(level)"
            for n in 0..<perLevel { text += " xmlns:p\(level)_\(n)=\"urn:\(level):\(n)\"" }
            text += ">"
        }
        for level in (0..<depth).reversed() { text += "</x\(level)>" }
        text += "</channel></rss>"
        return Array(text.utf8)
    }

    /// Counts element starts and cancels the token at the `at`-th.
    final class CancellingHandler: XMLReaderHandler {
        let token: ParseCancellation
        let at: Int
        var starts = 0
        var ends = 0
        init(token: ParseCancellation, at: Int) {
            self.token = token
            self.at = at
        }
        override func startElement(_ element: XMLStartElement) {
            starts += 1
            if starts == at { token.cancel() }
        }
        override func endElement() { ends += 1 }
    }

    @Test func aCancelledTokenStopsTheParseAtTheNextEvent() {
        let token = ParseCancellation()
        let handler = CancellingHandler(token: token, at: 5)
        let outcome = XMLReader.parse(
            Self.nestedNamespaces(depth: 250, perLevel: 4), handler: handler, cancellation: token)
        #expect(outcome.stopped)
        #expect(handler.starts == 5)  // rss, channel, x0, x1, x2: nothing after the cancel
        #expect(handler.ends == 0)
    }

    @Test func withoutACancellationTheSameDocumentRunsToTheEnd() {
        let token = ParseCancellation()
        let handler = CancellingHandler(token: token, at: .max)
        let outcome = XMLReader.parse(
            Self.nestedNamespaces(depth: 250, perLevel: 4), handler: handler, cancellation: token)
        #expect(!outcome.stopped)
        #expect(handler.starts == 252)
        #expect(handler.ends == 252)
    }

    @Test func feedParserObeysTheTaskLocalTokenAndThrowsStopped() {
        let token = ParseCancellation()
        token.cancel()
        let feed = Array("<rss version=\"2.0\"><channel><title>T</title></channel></rss>".utf8)
        #expect(throws: FeedParseError.stopped) {
            try ParseCancellation.$current.withValue(token) { try FeedParser.parse(bytes: feed, baseURL: nil) }
        }
        #expect(FeedParseError.stopped.description == "parse stopped before the end of the document")
        // Outside the binding the same document parses.
        #expect((try? FeedParser.parse(bytes: feed, baseURL: nil))?.channel.title == "T")
    }

    @Test func theCraftedNestedNamespaceFeedIsRefusedBeforeParsing() {
        let crafted = Self.nestedNamespaces(depth: 250, perLevel: 250)
        let measure = StartTagLimit.measure(crafted)
        #expect(measure.maxAttributes == 250)  // under the attribute limit: it passed before
        // Level l declares 250 with 250·l in scope: 250·250·(0+1+…+249).
        #expect(measure.namespaceWork == 250 * 250 * (249 * 250 / 2))
        #expect(throws: DocumentRefused(.tooManyNamespaces(limit: StartTagLimit.maxNamespaceWork))) {
            try StartTagLimit.check(crafted)
        }
        #expect(
            DocumentRefused(.tooManyNamespaces(limit: 1)).description
                == "refused: too many nested namespace declarations (libxml2 would compare them pairwise)")
    }

    @Test func namespaceWorkCountsOnlyDeclarationsInScope() {
        // A root with 30 declarations and 1,000 items re-declaring 3 each: 1,000·3·30.
        var text = "<rss"
        for n in 0..<30 { text += " xmlns:r\(n)='urn:r:\(n)'" }
        text += " version='2.0'><channel>"
        for _ in 0..<1000 { text += "<item xmlns:a='urn:a' xmlns:b='urn:b' xmlns = 'urn:d'><title>t</title></item>" }
        text += "</channel></rss>"
        #expect(StartTagLimit.measure(Array(text.utf8)) == .init(maxAttributes: 31, namespaceWork: 90_000))
        // Empty elements' declarations go out of scope with them; `xmlnsfoo=` and a value
        // that mentions xmlns are not declarations.
        let empty = "<a xmlns:x='1' xmlns:y='2'><b xmlns:z='3'/><c xmlns:w='4' xmlnsfoo='x' t='xmlns:q=1'/></a>"
        #expect(StartTagLimit.measure(Array(empty.utf8)) == .init(maxAttributes: 3, namespaceWork: 4))
        // UTF-16: NUL bytes are skipped.
        let utf16 = Array(empty.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(StartTagLimit.measure(utf16) == .init(maxAttributes: 3, namespaceWork: 4))
        #expect(throws: Never.self) { try StartTagLimit.check(Array(text.utf8)) }
    }
}
