import Foundation
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore
@testable import PodcastWeb

/// Feed URLs with credentials (`https://alice:pa55word@host/feed`) never leave the web layer
/// unmasked: the page, the API, the event stream and `/export.opml` show them as `list` does
/// (`MaskedURL`); only `/export.opml` with the configured token gives the stored URLs.
final class WebCredentialTests: XCTestCase {
    static let secretFeed = "https://alice:pa55word@h/private"

    private func fixture(token: String? = nil) throws -> WebFixture {
        let web = try WebFixture(token: token)
        try web.store.add(url: WebCredentialTests.secretFeed, title: "Private")
        try web.daemon.reload()
        return web
    }

    func testExportWithoutATokenMasksCredentialsAndSaysSo() throws {
        let web = try fixture()
        let export = web.send("GET", "/export.opml")
        XCTAssertEqual(export.status, 200)
        XCTAssertFalse(export.text.contains("pa55word"), export.text)
        XCTAssertTrue(export.text.contains(#"xmlUrl="https://alice:***@h/private""#), export.text)
        XCTAssertTrue(export.text.contains(#"xmlUrl="http://h/a""#), export.text)
        XCTAssertTrue(
            export.text.contains(
                "<!-- 1 feed URL(s) have their credentials masked (***): send the web token, or use `podcast-watch export`, for the full URLs -->"
            ), export.text)
        // A bearer header on a server without a token reveals nothing.
        let bearer = web.send("GET", "/export.opml", headers: ["Authorization": "Bearer guess-0000000000000000"])
        XCTAssertFalse(bearer.text.contains("pa55word"), bearer.text)
    }

    func testExportWithTheTokenGivesTheStoredURLs() throws {
        let web = try fixture(token: "tok-0123456789abcdef")
        for headers in [["Authorization": "Bearer tok-0123456789abcdef"], ["Cookie": "pw_token=tok-0123456789abcdef"]] {
            let export = web.send("GET", "/export.opml", headers: headers)
            XCTAssertEqual(export.status, 200)
            XCTAssertTrue(export.text.contains(#"xmlUrl="https://alice:pa55word@h/private""#), export.text)
            XCTAssertFalse(export.text.contains("<!--"), export.text)
        }
        XCTAssertEqual(web.send("GET", "/export.opml").status, 401)
    }

    func testThePageAndTheAPIShowTheMaskedURL() throws {
        let web = try fixture()
        for target in ["/", "/api/feeds", "/api/feeds/3"] {
            let response = web.send("GET", target)
            XCTAssertEqual(response.status, 200, target)
            XCTAssertFalse(response.text.contains("pa55word"), "\(target): \(response.text)")
            XCTAssertTrue(response.text.contains("alice:***@h/private"), target)
        }
        let conflict = web.json("POST", "/api/feeds", #"{"url":"https://alice:pa55word@h/private"}"#)
        XCTAssertEqual(conflict.status, 409)
        XCTAssertFalse(conflict.text.contains("pa55word"), conflict.text)
    }

    func testEpisodeLinksAndGuidsWithCredentialsAreMasked() {
        let episode = StoredEpisode(
            id: 1, feedID: 1, identity: "k", guid: "https://bob:pw1@cdn/ep1", title: "One",
            link: "https://bob:pw1@site/ep1", published: nil, duration: nil, description: nil,
            enclosure: Enclosure(url: "https://bob:pw1@cdn/ep1.mp3", length: 1, mimeType: "audio/mpeg"),
            enclosures: [], firstSeen: WebFixture.now, announced: true, announcementPending: false)
        let json = WebJSON.episode(episode).serialized
        XCTAssertFalse(json.contains("pw1"), json)
        XCTAssertTrue(json.contains(#""guid":"https://bob:***@cdn/ep1""#), json)
        XCTAssertTrue(json.contains(#""link":"https://bob:***@site/ep1""#), json)
        let announcement = EpisodeAnnouncement(
            time: WebFixture.now, feedURL: WebCredentialTests.secretFeed, podcastTitle: nil, title: "One",
            guid: "g", url: "https://bob:pw1@cdn/ep1.mp3", link: nil)
        let item = DashboardPage.item(announcement)
        XCTAssertFalse(item.contains("pw1") || item.contains("pa55word"), item)
        XCTAssertTrue(item.contains(#"href="https://bob:***@cdn/ep1.mp3""#), item)
        var linked = announcement
        linked.link = "https://bob:pw1@site/ep1"
        let linkedJSON = WebJSON.announcement(linked).serialized
        XCTAssertFalse(linkedJSON.contains("pw1") || linkedJSON.contains("pa55word"), linkedJSON)
    }
}
