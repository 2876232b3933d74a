import Foundation
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastWeb

/// Tokens, the loopback Host check and CSRF, through the router.
final class WebAccessTests: XCTestCase {
    func testLoopbackWithoutTokenAnswersOnlyToALoopbackHost() throws {
        let web = try WebFixture()
        XCTAssertEqual(web.send("GET", "/api/feeds").status, 200)
        XCTAssertEqual(web.send("GET", "/api/feeds", headers: ["Host": "localhost:8080"]).status, 200)
        XCTAssertEqual(web.send("GET", "/api/feeds", headers: ["Host": "[::1]:8080"]).status, 200)
        // DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends its own Host.
        let rebound = web.send("GET", "/api/feeds", headers: ["Host": "evil.example:8080"])
        XCTAssertEqual(rebound.status, 421)
        XCTAssertEqual(web.send("GET", "/api/feeds", headers: ["Host": "127.0.0.1.evil.example"]).status, 421)
    }

    func testATokenIsRequiredAsBearerOrCookie() throws {
        let web = try WebFixture(token: "tok-0123456789abcdef")
        let refused = web.send("GET", "/api/feeds", headers: ["Host": "10.0.0.5:8080"])
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(refused.header("WWW-Authenticate"), "Bearer realm=\"podcast-watch\"")
        XCTAssertEqual(
            web.send("GET", "/api/feeds", headers: ["Authorization": "Bearer tok-0123456789abcdef"]).status, 200)
        XCTAssertEqual(
            web.send("GET", "/api/feeds", headers: ["Authorization": "Bearer tok-0123456789abcdeX"]).status, 401)
        XCTAssertEqual(
            web.send("GET", "/metrics", headers: ["Cookie": "a=b; pw_token=tok-0123456789abcdef"]).status, 200)
        XCTAssertEqual(web.send("GET", "/", headers: ["Cookie": "pw_token=wrong"]).status, 401)
        XCTAssertEqual(web.send("GET", "/static/app.js").status, 401)
    }

    func testOpeningTheTokenURLSetsTheCookieAndRedirects() throws {
        let web = try WebFixture(token: "tok-0123456789abcdef")
        let login = web.send("GET", "/?token=tok-0123456789abcdef")
        XCTAssertEqual(login.status, 303)
        XCTAssertEqual(login.header("Location"), "/")
        XCTAssertEqual(login.header("Set-Cookie"), "pw_token=tok-0123456789abcdef; Path=/; HttpOnly; SameSite=Strict")
        XCTAssertEqual(web.send("GET", "/?token=nope").status, 401)
    }

    func testFormPostsNeedTheCSRFSecret() throws {
        let web = try WebFixture()
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let missing = web.send("POST", "/feeds", headers: form, body: "url=http%3A%2F%2Fh%2Fc")
        XCTAssertEqual(missing.status, 403)
        XCTAssertEqual(web.send("POST", "/feeds", headers: form, body: "url=http%3A%2F%2Fh%2Fc&csrf=wrong").status, 403)
        XCTAssertEqual(try web.store.feeds().count, 2)
        let added = web.send("POST", "/feeds", headers: form, body: "url=http%3A%2F%2Fh%2Fc&title=Cee&csrf=s3cret")
        XCTAssertEqual(added.status, 303)
        XCTAssertEqual(added.header("Location"), "/?done=added")
        XCTAssertEqual(try web.store.feeds().map(\.title), [nil, nil, "Cee"])
        let again = web.send("POST", "/feeds", headers: form, body: "url=http%3A%2F%2Fh%2Fc&csrf=s3cret")
        XCTAssertEqual(again.header("Location"), "/?done=error-exists")
    }

    func testCrossSiteStateChangesAreRefusedWhateverTheyCarry() throws {
        let web = try WebFixture()
        let json = ["Content-Type": "application/json"]
        let crossOrigin = web.send(
            "POST", "/api/feeds", headers: json.merging(["Origin": "http://evil.example"]) { $1 },
            body: #"{"url":"http://h/c"}"#)
        XCTAssertEqual(crossOrigin.status, 403)
        let crossSite = web.send(
            "DELETE", "/api/feeds/1", headers: ["Sec-Fetch-Site": "cross-site"])
        XCTAssertEqual(crossSite.status, 403)
        let nullOrigin = web.send("DELETE", "/api/feeds/1", headers: ["Origin": "null"])
        XCTAssertEqual(nullOrigin.status, 403)
        XCTAssertEqual(try web.store.feeds().count, 2)
        // The same requests from the page's own origin go through.
        let sameOrigin = web.send(
            "POST", "/api/feeds", headers: json.merging(["Origin": "http://127.0.0.1:8080"]) { $1 },
            body: #"{"url":"http://h/c"}"#)
        XCTAssertEqual(sameOrigin.status, 201)
    }

    func testGetsChangeNothing() throws {
        let web = try WebFixture()
        // A GET to an action path is a 405, not an action.
        let get = web.send("GET", "/feeds/1/remove")
        XCTAssertEqual(get.status, 405)
        XCTAssertEqual(get.header("Allow"), "POST")
        XCTAssertEqual(web.send("GET", "/api/poll").status, 405)
        XCTAssertEqual(try web.store.feeds().count, 2)
        XCTAssertEqual(web.fetcher.pendingURLs, [])
    }

    func testHostParsing() {
        XCTAssertTrue(WebAccess.isLoopbackHost("127.0.0.1"))
        XCTAssertTrue(WebAccess.isLoopbackHost("127.1.2.3:80"))
        XCTAssertTrue(WebAccess.isLoopbackHost("LOCALHOST:8080"))
        XCTAssertTrue(WebAccess.isLoopbackHost("[::1]:8080"))
        XCTAssertFalse(WebAccess.isLoopbackHost("[::2]:8080"))
        XCTAssertFalse(WebAccess.isLoopbackHost("127.0.0.1.nip.io"))
        XCTAssertFalse(WebAccess.isLoopbackHost("10.0.0.1:8080"))
        for good in [
            "localhost", "LocalHost:8080", "127.0.0.1", "127.255.0.9:65535", "[::1]", "[::1]:80", "127.0.0.1:0",
        ] {
            XCTAssertTrue(WebAccess.isLoopbackHost(good), good)
        }
        for bad in [
            "localhost.evil", "localhost.evil:80", "a.localhost", "localhost.", "127.0.0.1.", "127.1", "0x7f.1",
            "0x7f.0.0.1", "127.0.0.01", "127.000.0.1", "127.0.0.256", "127.0.0.1:", "127.0.0.1:99999",
            "127.0.0.1:8080:80", "127.0.0.1:+80", "[::1]x", "[::1]:", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]",
            "::1", "", ":8080", "localhost:８０",
        ] {
            XCTAssertFalse(WebAccess.isLoopbackHost(bad), bad)
        }
        XCTAssertTrue(WebAccess.constantTimeEqual("abc", "abc"))
        XCTAssertFalse(WebAccess.constantTimeEqual("abc", "abcd"))
        XCTAssertFalse(WebAccess.constantTimeEqual("", "a"))
    }

    func testHTTPAddressParsing() throws {
        XCTAssertEqual(try HTTPAddress.parse("8080"), HTTPAddress(host: "127.0.0.1", port: 8080))
        XCTAssertEqual(try HTTPAddress.parse("0.0.0.0:80"), HTTPAddress(host: "0.0.0.0", port: 80))
        XCTAssertEqual(try HTTPAddress.parse("[::1]:0"), HTTPAddress(host: "::1", port: 0))
        XCTAssertTrue(try HTTPAddress.parse("[::1]:1").isLoopback)
        XCTAssertFalse(try HTTPAddress.parse("0.0.0.0:1").isLoopback)
        for bad in ["", "x", "65536", "localhost:80", "1.2.3:80", "[::1]80", "[zz]:80", "1.2.3.4:", ":80"] {
            XCTAssertThrowsError(try HTTPAddress.parse(bad), bad)
        }
    }
}
