import Foundation
import Testing

@testable import PodcastWeb

/// An OPML upload cut short inside an outline's attribute value: the web import leaves that
/// outline out as `import` does (`TruncatedOPMLTests`), and offers the ones before it.
@Suite struct WebImportTruncatedOPMLTests {
    static let head =
        "<?xml version=\"1.0\"?>\n<opml version=\"2.0\"><body>\n<outline text=\"A\" xmlUrl=\"http://h/a\"/>\n"

    @Test(arguments: [
        "<outline text=\"B\" xmlUrl=\"http://h/feeds/b", "<outline xmlUrl='http://h/feeds/b.xml' text='B",
        "<outline text=\"B\" xmlUrl=\"http://h/feeds/b.xml?a=1&amp;b",
    ])
    func anOutlineCutInsideAValueIsLeftOut(_ tail: String) {
        #expect(WebImport.outlines(Data((Self.head + tail).utf8)).map { $0.map(\.url) } == .success(["http://h/a"]))
    }
}
