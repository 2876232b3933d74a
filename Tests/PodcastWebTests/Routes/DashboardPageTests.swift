import Foundation
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastWeb

/// The server-rendered page: feed text is escaped for its context, links only http(s).
final class DashboardPageTests: XCTestCase {
    func testHostileTitlesErrorsAndLinksAreNeutralised() {
        var p = Podcast(id: 7, url: "http://h/x", title: "<img src=x onerror=alert(1)></script>\"'&", status: .failing)
        p.lastError = "<b>bad</b>"
        var a = EpisodeAnnouncement(
            time: Date(timeIntervalSince1970: 0), feedURL: "http://h/x",
            podcastTitle: "</script><script>alert(1)</script>",
            title: "<svg onload=alert(2)>", guid: nil, url: nil, link: "javascript:alert(3)")
        a.published = Date(timeIntervalSince1970: 86_400)
        let html = DashboardPage.render(
            podcasts: [p], episodes: [a], totalNew: 1, episodeCount: { _ in 4 }, csrf: "tok\"en")
        XCTAssertTrue(
            html.contains(
                "<span class=\"title\">&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&quot;&#39;&amp;</span>"))
        XCTAssertTrue(html.contains("<td class=\"error\">&lt;b&gt;bad&lt;/b&gt;</td>"))
        XCTAssertTrue(
            html.contains(
                "<li><span class=\"podcast\">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span> <span class=\"episode\">&lt;svg onload=alert(2)&gt;</span> <time datetime=\"1970-01-02T00:00:00.000Z\">1970-01-02 00:00 UTC</time></li>"
            ))
        XCTAssertFalse(html.contains("javascript:"))
        XCTAssertTrue(html.contains("value=\"tok&quot;en\""))
        XCTAssertFalse(html.contains("<script>"))  // only the one external script tag
        XCTAssertEqual(html.components(separatedBy: "<script").count, 2)
        XCTAssertTrue(html.contains("<td class=\"num\">4</td>"))
        XCTAssertTrue(html.contains("<p id=\"counts\">1 feed · failing 1 · 1 new since start</p>"))
    }

    func testControlCharactersBecomeReplacementCharacters() {
        XCTAssertEqual(HTMLEscape.text("a\u{0}b\u{1B}[31mc\u{85}\td\n"), "a\u{FFFD}b\u{FFFD}[31mc\u{FFFD}\td\n")
        XCTAssertEqual(HTMLEscape.link("HTTPS://x/?a=1&b=2"), "HTTPS://x/?a=1&amp;b=2")
        XCTAssertNil(HTMLEscape.link(" javascript:alert(1)"))
        XCTAssertNil(HTMLEscape.link("data:text/html,x"))
    }

    /// Bidi overrides and isolates in feed text cannot reorder the page: U+FFFD in the HTML and
    /// in the JSON the event stream sends (the script shows it with `textContent`).
    func testBidiOverridesInFeedTitlesAreNeutralisedInTheHTMLAndTheEventData() {
        let title = "Show \u{202E}3pm.exe\u{202C} \u{2066}x\u{2069} \u{202A}\u{202B}\u{202D}\u{2067}\u{2068}"
        let shown = "Show \u{FFFD}3pm.exe\u{FFFD} \u{FFFD}x\u{FFFD} \u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"
        XCTAssertEqual(HTMLEscape.text(title), shown)
        let p = Podcast(id: 3, url: "http://h/x", title: title, status: .ok)
        let html = DashboardPage.render(
            podcasts: [p], episodes: [], totalNew: 0, episodeCount: { _ in 0 }, csrf: "t")
        XCTAssertTrue(html.contains("<span class=\"title\">\(shown)</span>"), html)
        XCTAssertFalse(
            html.unicodeScalars.contains {
                (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            })
        let json = String(decoding: WebJSON.feed(p, episodeCount: 0).utf8Bytes, as: UTF8.self)
        XCTAssertTrue(json.contains(#""title":"\#(shown)""#), json)
        let a = EpisodeAnnouncement(
            time: Date(timeIntervalSince1970: 0), feedURL: "http://h/x", podcastTitle: title, title: "e\u{202E}x",
            guid: nil, url: nil, link: nil)
        let event = String(decoding: WebJSON.announcement(a).utf8Bytes, as: UTF8.self)
        XCTAssertTrue(event.contains(#""podcast_title":"\#(shown)","title":"\#("e\u{FFFD}x")""#), event)
    }

    func testThePageWorksWithoutScriptAndShowsNotices() throws {
        let web = try WebFixture()
        let page = web.send("GET", "/?done=imported&added=3&existing=1&skipped=x")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains("OPML imported: 3 added, 1 already subscribed, 0 skipped."))
        XCTAssertTrue(page.text.contains("<form method=\"post\" action=\"/feeds/1/remove\">"))
        XCTAssertTrue(page.text.contains("<form method=\"post\" action=\"/import\" enctype=\"multipart/form-data\""))
        XCTAssertTrue(page.text.contains("<tr id=\"feed-2\">"))
        // An unknown code reflects nothing.
        XCTAssertFalse(web.send("GET", "/?done=%3Cscript%3E").text.contains("notice"))
    }

    func testMultipartImportFromThePage() throws {
        let web = try WebFixture()
        let boundary = "----b0und"
        let body =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ns3cret\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"opml\"; filename=\"s.opml\"\r\nContent-Type: text/xml\r\n\r\n"
            + "<opml version=\"2.0\"><body><outline xmlUrl=\"http://h/z\"/></body></opml>\r\n--\(boundary)--\r\n"
        let response = web.send(
            "POST", "/import", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"], body: body)
        XCTAssertEqual(response.status, 303)
        XCTAssertEqual(response.header("Location"), "/?done=imported&added=1&existing=0&skipped=0")
        XCTAssertEqual(try web.store.feeds().last?.url, "http://h/z")
        // Above the web import cap: refused whole, with a notice naming the cap and the CLI.
        let outlines = (0...WebImportSummary.maxOutlines).map { "<outline xmlUrl=\"http://many/\($0)\"/>" }.joined()
        let tooMany = web.send(
            "POST", "/import", headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
            body: body.replacingOccurrences(of: "<outline xmlUrl=\"http://h/z\"/>", with: outlines))
        XCTAssertEqual(tooMany.header("Location"), "/?done=error-opml-size")
        XCTAssertEqual(try web.store.feeds().count, 3)
        XCTAssertTrue(
            web.send("GET", "/?done=error-opml-size").text.contains(
                "That OPML has more than 1000 outlines; import it with `podcast-watch import FILE`."))
    }
}
