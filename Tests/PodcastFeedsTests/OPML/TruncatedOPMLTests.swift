import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// An OPML file cut short inside an outline's attribute value: libxml2's recovery reports the
/// outline with the value up to the cut, so `import` (and the web import) subscribed to a URL
/// cut short. Such an outline is left out, and the first detail says so; the ones before it
/// are still offered, and an outline whose values are whole stays. (The web import:
/// `WebImportTruncatedOPMLTests`.)
@Suite struct TruncatedOPMLTests {
    static let head =
        "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><body>\n<outline text=\"A\" xmlUrl=\"http://h/a\"/>\n"

    static func malformed(_ text: String) -> (details: [String], recovered: [String])? {
        do {
            _ = try OPML.parse(data: Data(text.utf8))
        } catch .malformed(let details, let recovered) {
            return (details, recovered.map(\.url))
        } catch {}
        return nil
    }

    @Test(arguments: [
        "<outline text=\"B\" xmlUrl=\"http://h/feeds/b", "<outline xmlUrl='http://h/feeds/b.xml' text='B",
        "<outline text=\"B\" xmlUrl=\"http://h/feeds/b.xml?a=1&amp;b",
    ])
    func anOutlineCutInsideAValueIsLeftOut(_ tail: String) throws {
        let found = try #require(Self.malformed(Self.head + tail))
        #expect(found.recovered == ["http://h/a"])
        #expect(
            found.details.first == "line 4: the file ends inside an outline's attribute value; that outline is left out"
        )
    }

    @Test(arguments: [
        "<outline text=\"B\" xmlUrl=\"http://h/b\"/>\n", "<outline text=\"B\" xmlUrl=\"http://h/b\"",
        "<outline text=\"B\" xmlUrl=\"http://h/b\" ti",
    ])
    func anOutlineWhoseValuesAreWholeStays(_ tail: String) throws {
        let found = try #require(Self.malformed(Self.head + tail))
        #expect(found.recovered == ["http://h/a", "http://h/b"])
        #expect(found.details.first?.contains("left out") == false)
    }

    @Test func aWholeFileIsUntouched() throws {
        #expect(try OPML.parse(data: Data((Self.head + "</body></opml>\n").utf8)).map(\.url) == ["http://h/a"])
        #expect(!OPML.endsInsideAttributeValue(Array("<a b='>'".utf8)))
        #expect(OPML.endsInsideAttributeValue(Array("<a b='x' c=\"y".utf8)))
    }
}
