import Foundation
import Testing

@testable import PodcastFeeds
@testable import PodcastWeb

/// The start-tag limit of the parse guard, applied to the OPML the web import reads (the
/// daemon's feed parse: `DecodedScanTests`).
@Suite struct WebImportStartTagLimitTests {
    static let refusal = DocumentRefused(.tooManyAttributes(limit: StartTagLimit.maxAttributes))

    /// The web import parses OPML with the same reader: an outline with 300 attributes is
    /// refused before libxml2 sees it (two such uploads held both workers for 12 s).
    @Test func theWebOPMLImportIsMeasuredToo() {
        let attributes = (0..<300).map { " a\($0)='x'" }.joined()
        let opml = "<opml version=\"2.0\"><body><outline xmlUrl=\"http://h/a\"\(attributes)/></body></opml>"
        #expect(WebImport.outlines(Data(opml.utf8)) == .failure(.notOPML(.refused(Self.refusal))))
        #expect(
            "\(OPMLError.refused(Self.refusal))" == "OPML file refused: an element has more than 256 attributes")
        // The CLI's import reads it the same way.
        #expect(throws: OPMLError.refused(Self.refusal)) { try OPML.parse(bytes: Array(opml.utf8)) }
    }
}
