import Foundation
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastFeeds
@testable import PodcastWeb

/// The JSON API through the router, with exact bodies and statuses.
final class WebAPITests: XCTestCase {
    static let feedA =
        #"{"id":1,"url":"http://h/a","title":"Show of http://h/a","status":"ok","last_check":"2023-11-14T22:13:20.000Z","next_poll":"2023-11-14T23:13:20.000Z","last_error":null,"hook_error":null,"episode_count":2,"new_count":2,"hook_retry":null}"#
    static let feedB =
        #"{"id":2,"url":"http://h/b","title":null,"status":"failing","last_check":"2023-11-14T22:13:20.000Z","next_poll":"2023-11-14T22:18:20.000Z","last_error":"HTTP 404","hook_error":null,"episode_count":0,"new_count":0,"hook_retry":null}"#

    func testFeedsListsEveryFeedWithCountsAndEpisodeCounts() throws {
        let web = try WebFixture()
        let response = web.send("GET", "/api/feeds")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(
            response.text,
            #"{"feeds":["# + WebAPITests.feedA + "," + WebAPITests.feedB
                + #"],"counts":{"feeds":2,"waiting":0,"polling":0,"ok":1,"backing-off":0,"failing":1,"disabled":0,"new_since_start":2}}"#
                + "\n")
    }

    func testTheFeedListFollowsEveryChange() throws {
        let web = try WebFixture()
        XCTAssertTrue(web.send("GET", "/api/feeds").text.contains(#""last_error":"HTTP 404""#))
        web.daemon.library.update(id: 2) { $0.lastError = "HTTP 503" }
        let after = web.send("GET", "/api/feeds").text
        XCTAssertTrue(after.contains(#""last_error":"HTTP 503""#), after)
        XCTAssertFalse(after.contains("HTTP 404"))
    }

    func testOneFeedAndItsErrors() throws {
        let web = try WebFixture()
        XCTAssertEqual(web.send("GET", "/api/feeds/2").text, #"{"feed":"# + WebAPITests.feedB + "}\n")
        let missing = web.send("GET", "/api/feeds/99")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.text, #"{"error":{"status":404,"message":"no such feed: 99"}}"# + "\n")
        XCTAssertEqual(web.send("GET", "/api/feeds/x").status, 404)
        // The one ID rule of every `/…/ID` route: digits only, no sign, no leading zero, no
        // trailing slash or empty segment, within Int64.
        for path in [
            "/api/feeds/+2", "/api/feeds/02", "/api/feeds/2/", "/api/feeds//2", "/api/feeds/99999999999999999999",
        ] {
            XCTAssertEqual(web.send("GET", path).status, 404, path)
        }
        XCTAssertEqual(web.send("DELETE", "/api/feeds/02").status, 404)
        XCTAssertEqual(web.daemon.library.count, 2)
        // A disabled feed is never polled again: no next poll, whatever the row kept.
        web.daemon.library.update(id: 2) {
            $0.status = .disabled
            $0.nextPoll = Date(timeIntervalSince1970: 1_700_000_000)
        }
        XCTAssertTrue(
            web.send("GET", "/api/feeds/2").text.contains(
                #""status":"disabled","last_check":"2023-11-14T22:13:20.000Z","next_poll":null,"#))
        let wrongMethod = web.send("PUT", "/api/feeds/1")
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.header("Allow"), "GET, HEAD, DELETE")
        XCTAssertEqual(
            web.send("GET", "/nope").text, #"{"error":{"status":404,"message":"no such page: /nope"}}"# + "\n")
    }

    /// Whoever answers it (the router's stream branch, or `route` without a hub), `/events`
    /// allows GET only: no HEAD for an event stream.
    func testEventsAllowsGetOnly() throws {
        let web = try WebFixture()
        for method in ["HEAD", "DELETE"] {
            let response = web.send(method, "/events")
            XCTAssertEqual(response.status, 405, method)
            XCTAssertEqual(response.header("Allow"), "GET", method)
        }
        // Every status the server sends has its reason phrase.
        for (status, reason) in [
            (413, "Content Too Large"), (421, "Misdirected Request"), (431, "Request Header Fields Too Large"),
            (501, "Not Implemented"), (503, "Service Unavailable"),
        ] {
            XCTAssertEqual(HTTPResponse.reason(status), reason)
        }
    }

    func testEpisodesArePagedNewestFirstAndFilteredBySince() throws {
        let web = try WebFixture()
        let first = web.send("GET", "/api/episodes?limit=1")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(
            first.text,
            #"{"episodes":[{"id":2,"feed_id":1,"title":"Episode g2","published":"1970-01-03T00:00:00.000Z","first_seen":"2023-11-14T22:13:20.000Z","guid":"g2","link":null,"url":"http://media/g2.mp3","mime_type":"audio/mpeg","length":100,"duration":null,"description":null}],"limit":1,"offset":0,"next_offset":1}"#
                + "\n")
        let second = jsonObject(web.send("GET", "/api/episodes?limit=1&offset=1").text)
        XCTAssertEqual((second["episodes"] as? [[String: Any]])?.map { $0["guid"] as? String }, ["g1"])
        XCTAssertTrue(second["next_offset"] is NSNull)
        let ofFeed2 = jsonObject(web.send("GET", "/api/episodes?feed=2").text)
        XCTAssertEqual((ofFeed2["episodes"] as? [Any])?.count, 0)
        // `since` keeps episodes first seen after the time given.
        let before = jsonObject(web.send("GET", "/api/episodes?since=2023-11-14T22:13:19Z").text)
        XCTAssertEqual((before["episodes"] as? [Any])?.count, 2)
        let after = jsonObject(web.send("GET", "/api/episodes?since=2023-11-14T22:13:20Z").text)
        XCTAssertEqual((after["episodes"] as? [Any])?.count, 0)
    }

    /// `first_seen` is stored with fractions of a second: JSON shows milliseconds, and the
    /// newest `first_seen` sent back as `since` returns no episode again (no duplicates), while
    /// an episode first seen one millisecond later is returned.
    func testSincePagingWithFractionalFirstSeenReturnsNoDuplicates() throws {
        let web = try WebFixture()
        _ = try web.store.database.run(
            "UPDATE episodes SET first_seen = ?1 WHERE guid = 'g1'", .real(1_700_000_000.4461))
        _ = try web.store.database.run(
            "UPDATE episodes SET first_seen = ?1 WHERE guid = 'g2'", .real(1_700_000_000.4469))
        let page = jsonObject(web.send("GET", "/api/episodes").text)["episodes"] as? [[String: Any]] ?? []
        XCTAssertEqual(
            page.map { $0["first_seen"] as? String }, ["2023-11-14T22:13:20.446Z", "2023-11-14T22:13:20.446Z"])
        let again = jsonObject(web.send("GET", "/api/episodes?since=2023-11-14T22:13:20.446Z").text)
        XCTAssertEqual((again["episodes"] as? [Any])?.count, 0)
        _ = try web.store.database.run(
            "UPDATE episodes SET first_seen = ?1 WHERE guid = 'g2'", .real(1_700_000_000.447))
        let later = jsonObject(web.send("GET", "/api/episodes?since=2023-11-14T22:13:20.446Z").text)
        XCTAssertEqual((later["episodes"] as? [[String: Any]])?.map { $0["guid"] as? String }, ["g2"])
        XCTAssertEqual(
            (later["episodes"] as? [[String: Any]])?.map { $0["first_seen"] as? String }, ["2023-11-14T22:13:20.447Z"])
    }

    func testEpisodeQueryErrorsAre400Or404() throws {
        let web = try WebFixture()
        XCTAssertEqual(
            web.send("GET", "/api/episodes?limit=0").text,
            #"{"error":{"status":400,"message":"limit must be a whole number from 1 to 500, not '0'"}}"# + "\n")
        XCTAssertEqual(web.send("GET", "/api/episodes?limit=501").status, 400)
        XCTAssertEqual(web.send("GET", "/api/episodes?offset=-1").status, 400)
        XCTAssertEqual(web.send("GET", "/api/episodes?since=yesterday").status, 400)
        XCTAssertEqual(web.send("GET", "/api/episodes?feed=abc").status, 400)
        XCTAssertEqual(web.send("GET", "/api/episodes?feed=42").status, 404)
    }

    /// Review: `feed=` took anything `Int64` parses (`+1`, `01`) while path ids take only
    /// canonical digits: the same rule now, and the same 400 as any bad parameter.
    func testFeedQueryTakesOnlyCanonicalIDs() throws {
        let web = try WebFixture()
        let cases = [("%2B1", "+1"), ("01", "01"), ("0", "0"), ("-1", "-1"), ("1.0", "1.0"), ("+1", " 1")]
        for (query, raw) in cases {
            XCTAssertEqual(
                web.send("GET", "/api/episodes?feed=\(query)").text,
                #"{"error":{"status":400,"message":"feed must be a feed id, not '"# + raw + #"'"}}"# + "\n", raw)
        }
    }

    func testAddingAFeedStoresItAndStartsItsFirstPoll() throws {
        let web = try WebFixture()
        let response = web.json("POST", "/api/feeds", #"{"url":"http://h/c","title":"Cee"}"#)
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.header("Location"), "/api/feeds/3")
        XCTAssertEqual(
            response.text,
            #"{"feed":{"id":3,"url":"http://h/c","title":"Cee","status":"polling","last_check":null,"next_poll":null,"last_error":null,"hook_error":null,"episode_count":0,"new_count":0,"hook_retry":null}}"#
                + "\n")
        XCTAssertEqual(web.fetcher.pendingURLs, ["http://h/c"])
        XCTAssertEqual(try web.store.feeds().map(\.url), ["http://h/a", "http://h/b", "http://h/c"])
    }

    func testAddRefusalsHaveFittingStatuses() throws {
        let web = try WebFixture()
        let again = web.json("POST", "/api/feeds", #"{"url":"http://h/a"}"#)
        XCTAssertEqual(again.status, 409)
        XCTAssertEqual(
            again.text, #"{"error":{"status":409,"message":"already subscribed to http://h/a (feed 1)"}}"# + "\n")
        let file = web.json("POST", "/api/feeds", #"{"url":"file:///etc/passwd"}"#)
        XCTAssertEqual(file.status, 422)
        XCTAssertEqual(
            file.text,
            #"{"error":{"status":422,"message":"only http:// and https:// feed URLs can be added from the web"}}"#
                + "\n")
        XCTAssertEqual(web.json("POST", "/api/feeds", "not json").status, 400)
        XCTAssertEqual(web.json("POST", "/api/feeds", #"{"title":"no url"}"#).status, 400)
        XCTAssertEqual(web.json("POST", "/api/feeds", #"{"url":"http://h/d","title":5}"#).status, 400)
        XCTAssertEqual(try web.store.feeds().count, 2)  // nothing was added by any of them
    }

    func testRemoveAndPoll() throws {
        let web = try WebFixture()
        XCTAssertEqual(web.send("POST", "/api/feeds/1/poll", headers: ["Content-Type": "application/json"]).status, 202)
        XCTAssertEqual(web.fetcher.pendingURLs, ["http://h/a"])
        XCTAssertEqual(web.json("POST", "/api/feeds/7/poll", "").status, 404)
        let removed = web.send("DELETE", "/api/feeds/2")
        XCTAssertEqual(removed.status, 200)
        XCTAssertEqual(removed.text, #"{"removed":2}"# + "\n")
        XCTAssertEqual(web.daemon.library.snapshots.map(\.id), [1])
        XCTAssertEqual(web.send("DELETE", "/api/feeds/2").status, 404)
        let all = web.json("POST", "/api/poll", "")
        XCTAssertEqual(all.status, 202)
        XCTAssertEqual(all.text, #"{"polling":"all"}"# + "\n")
    }

    func testImportAndExportOPML() throws {
        let web = try WebFixture()
        let opml =
            #"<opml version=\"2.0\"><body><outline text=\"C\" xmlUrl=\"http://h/c\"/><outline xmlUrl=\"http://h/a\"/><outline xmlUrl=\"file:///etc/passwd\"/></body></opml>"#
        let imported = web.json("POST", "/api/import", #"{"opml":""# + opml + #""}"#)
        XCTAssertEqual(imported.status, 200)
        XCTAssertEqual(imported.text, #"{"added":1,"existing":1,"skipped":1}"# + "\n")
        let export = web.send("GET", "/export.opml")
        XCTAssertEqual(export.header("Content-Type"), "text/x-opml; charset=utf-8")
        XCTAssertTrue(export.text.contains(#"xmlUrl="http://h/c""#))
        XCTAssertEqual(web.json("POST", "/api/import", #"{"opml":"<html/>"}"#).status, 422)
    }

    /// A web import above `WebImportSummary.maxOutlines` is refused whole with 413 and a
    /// pointer to the CLI, so one request cannot hold the loop; the cap itself is accepted.
    func testAnOPMLAboveTheWebImportCapIsRefusedWhole() throws {
        let web = try WebFixture()
        func opml(_ n: Int) -> String {
            let outlines = (0..<n).map { #"<outline xmlUrl=\"http://many/\#($0)\"/>"# }.joined()
            return #"{"opml":"<opml version=\"2.0\"><body>"# + outlines + #"</body></opml>"}"#
        }
        let cap = WebImportSummary.maxOutlines
        let refused = web.json("POST", "/api/import", opml(cap + 1))
        XCTAssertEqual(refused.status, 413)
        XCTAssertEqual(
            refused.text,
            #"{"error":{"status":413,"message":"the OPML has \#(cap + 1) outlines; the web import takes at most \#(cap): use `podcast-watch import FILE` for larger files"}}"#
                + "\n")
        XCTAssertEqual(try web.store.feeds().count, 2)
        let accepted = web.json("POST", "/api/import", opml(cap))
        XCTAssertEqual(accepted.text, #"{"added":\#(cap),"existing":0,"skipped":0}"# + "\n")
        XCTAssertEqual(try web.store.feeds().count, 2 + cap)
    }

    /// An import adds its new feeds to the library's list in one change: one by one, each
    /// copied the whole list (O(N) each), which held the loop ~98 s for 20,000 outlines.
    func testAnImportAddsItsFeedsToTheLibraryInOneListChange() throws {
        let web = try WebFixture()
        var lists: [Int] = []
        let token = web.daemon.library.$feedIDs.sink { lists.append($0.count) }
        defer { token.cancel() }
        let outlines = (0..<50).map { #"<outline xmlUrl=\"http://many/\#($0)\"/>"# }.joined()
        let imported = web.json(
            "POST", "/api/import", #"{"opml":"<opml version=\"2.0\"><body>"# + outlines + #"</body></opml>"}"#)
        XCTAssertEqual(imported.text, #"{"added":50,"existing":0,"skipped":0}"# + "\n")
        XCTAssertEqual(lists, [2, 52])  // the current list, then one change
        XCTAssertEqual(web.daemon.library.snapshots.map(\.id), Array(1...52))
    }

    /// A title with control or bidi-override characters is refused (422), as `add --title` is,
    /// instead of being dropped silently; nothing is subscribed.
    func testAFeedTitleWithControlOrBidiCharactersIsRefused() throws {
        let web = try WebFixture()
        for title in [#"a\nb"#, #"\u001b[2Jx"#, #"evil\u202Etxt.exe"#, #"x\u2066y"#] {
            let response = web.json("POST", "/api/feeds", #"{"url":"http://h/new","title":""# + title + #""}"#)
            XCTAssertEqual(response.status, 422, title)
            XCTAssertEqual(
                response.text,
                #"{"error":{"status":422,"message":"\"title\" must not contain control characters (newlines, tabs, escapes) or bidi overrides"}}"#
                    + "\n", title)
        }
        XCTAssertEqual(try web.store.feeds().count, 2)
        XCTAssertEqual(web.json("POST", "/api/feeds", #"{"url":"http://h/new","title":"Fine ✓"}"#).status, 201)
    }

    func testEveryResponseCarriesTheSecurityHeaders() throws {
        let web = try WebFixture()
        for response in [web.send("GET", "/"), web.send("GET", "/api/feeds"), web.send("GET", "/nope")] {
            XCTAssertEqual(response.header("Content-Security-Policy"), WebRouter.contentSecurityPolicy)
            XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff")
            XCTAssertEqual(response.header("X-Frame-Options"), "DENY")
        }
        XCTAssertFalse(WebRouter.contentSecurityPolicy.contains("unsafe"))
    }
}
