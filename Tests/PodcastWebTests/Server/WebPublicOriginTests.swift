import Foundation
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastEngine
@testable import PodcastWeb

/// `--http-public-origin`: behind a reverse proxy the public `Host` and `Origin` are accepted,
/// the setting is validated strictly, and a token is still required off loopback.
final class WebPublicOriginTests: XCTestCase {
    private func origin(_ text: String) throws -> HTTPPublicOrigin { try HTTPPublicOrigin.parse(text) }

    func testParsingAcceptsOriginsOnly() throws {
        XCTAssertEqual(
            try origin("https://pods.example.net"),
            HTTPPublicOrigin(scheme: "https", host: "pods.example.net", port: nil))
        let mixed = try origin("HTTPS://Pods.Example.NET:8443/")
        XCTAssertEqual(mixed, HTTPPublicOrigin(scheme: "https", host: "pods.example.net", port: 8443))
        XCTAssertEqual(mixed.description, "https://pods.example.net:8443")
        XCTAssertEqual(try origin("https://pods.example.net:443").description, "https://pods.example.net")
        XCTAssertEqual(try origin("http://[2001:DB8::1]:9000").host, "[2001:db8::1]")
        XCTAssertEqual(try origin("http://192.0.2.7").effectivePort, 80)
        XCTAssertEqual(try origin("http://[0:0:0:0:0:0:0:1]").description, "http://[::1]")
        XCTAssertEqual(try origin("https://1x.example.net").host, "1x.example.net")
        XCTAssertTrue(try origin("http://localhost:9000").isLoopback)
        XCTAssertFalse(try origin("https://pods.example.net").isLoopback)
        let refusals: [(String, String)] = [
            ("pods.example.net", "no scheme"),
            ("ftp://pods.example.net", "the scheme must be http or https"),
            ("https://me:pw@pods.example.net", "no user or password: the token does that"),
            ("https://pods.example.net/podcasts", "no path: the dashboard is served at the root"),
            ("https://pods.example.net?x=1", "no query or fragment"),
            ("https://pods.example.net#top", "no query or fragment"),
            ("https://", "the host must be a DNS name or an IPv4 address, without a trailing dot"),
            ("https://pods.example.net.", "the host must be a DNS name or an IPv4 address, without a trailing dot"),
            ("https://-pods.example.net", "the host must be a DNS name or an IPv4 address, without a trailing dot"),
            ("https://pods_1.example.net", "the host must be a DNS name or an IPv4 address, without a trailing dot"),
            ("https://256.1.1.1", "the host must be a DNS name or an IPv4 address, without a trailing dot"),
            ("https://bücher.example", "write an internationalised name in its xn-- form"),
            ("https://pods.example.net:0", "the port must be a number from 1 to 65535"),
            ("https://pods.example.net:65536", "the port must be a number from 1 to 65535"),
            ("https://pods.example.net:", "the port must be a number from 1 to 65535"),
            ("https://[::1", "an IPv6 address needs its closing ]"),
            ("https://[zz]", "not an IPv6 address in brackets"),
            ("https://[:]", "not an IPv6 address in brackets"),
            ("https://[1::2::3]", "not an IPv6 address in brackets"),
            ("https://[::]", "the unspecified address :: is not an origin"),
            ("https://[0:0:0:0:0:0:0:0]:8443", "the unspecified address :: is not an origin"),
            ("https://0.0.0.0", "the unspecified address 0.0.0.0 is not an origin"),
            ("https://0x7f.0.0.1", "a host ending in a number must be an IPv4 address written a.b.c.d in decimal"),
            ("https://1e2.3.4.5", "a host ending in a number must be an IPv4 address written a.b.c.d in decimal"),
            ("https://127.0.0.01", "a host ending in a number must be an IPv4 address written a.b.c.d in decimal"),
            (
                "https://pods.example.0x1",
                "a host ending in a number must be an IPv4 address written a.b.c.d in decimal"
            ),
            ("https://2130706433", "the host must be a DNS name or an IPv4 address, without a trailing dot"),
        ]
        for (text, why) in refusals {
            XCTAssertThrowsError(try origin(text), text) { error in
                XCTAssertEqual(
                    (error as? OptionValueError)?.message,
                    "option '--http-public-origin' needs scheme://host[:port] such as https://pods.example.net (\(why)), not '\(text)'"
                )
            }
        }
    }

    func testATokenIsRequiredBehindAPublicOriginOffLoopback() throws {
        let loopback = HTTPAddress(host: "127.0.0.1", port: 8080)
        XCTAssertFalse(WebDashboard.requiresToken(address: loopback, publicOrigin: nil))
        XCTAssertTrue(
            WebDashboard.requiresToken(address: loopback, publicOrigin: try origin("https://pods.example.net")))
        XCTAssertFalse(WebDashboard.requiresToken(address: loopback, publicOrigin: try origin("http://localhost:9000")))
        XCTAssertTrue(WebDashboard.requiresToken(address: HTTPAddress(host: "0.0.0.0", port: 1), publicOrigin: nil))
    }

    /// nginx's default `proxy_set_header Host $proxy_host`: Host is the upstream address, the
    /// browser's Origin the public site. With the token, the page's own state changes work.
    func testAProxyRewritingHostKeepsThePagesOriginUsable() throws {
        let web = try WebFixture(token: "tok-0123456789abcdef")
        web.access = WebAccess(
            token: "tok-0123456789abcdef", csrfSecret: "s3cret", publicOrigin: try origin("https://pods.example.net"))
        let headers = [
            "Authorization": "Bearer tok-0123456789abcdef", "Content-Type": "application/json",
            "Origin": "https://pods.example.net",
        ]
        let added = web.send("POST", "/api/feeds", headers: headers, body: #"{"url":"http://h/c"}"#)
        XCTAssertEqual(added.status, 201, added.text)
        for other in ["http://pods.example.net", "https://pods.example.net:8443", "https://evil.example", "null"] {
            let refused = web.send(
                "POST", "/api/feeds", headers: headers.merging(["Origin": other]) { $1 }, body: #"{"url":"http://h/d"}"#
            )
            XCTAssertEqual(refused.status, 403, other)
        }
        XCTAssertEqual(try web.store.feeds().map(\.url), ["http://h/a", "http://h/b", "http://h/c"])
    }

    /// Behind an https proxy the token cookie is `Secure` (never sent over plain http); with an
    /// http public origin, or none, it cannot be (the browser would drop it).
    func testTheTokenCookieIsSecureBehindAnHTTPSOrigin() throws {
        let token = "tok-0123456789abcdef"
        let cookie = { (origin: HTTPPublicOrigin?) -> String? in
            let web = try WebFixture(token: token)
            web.access = WebAccess(token: token, csrfSecret: "s3cret", publicOrigin: origin)
            let login = web.send("GET", "/?token=\(token)", headers: ["Host": origin?.host ?? "127.0.0.1"])
            XCTAssertEqual(login.status, 303)
            return login.header("Set-Cookie")
        }
        XCTAssertEqual(
            try cookie(try origin("https://pods.example.net")),
            "pw_token=\(token); Path=/; HttpOnly; SameSite=Strict; Secure")
        XCTAssertEqual(
            try cookie(try origin("http://dash.internal:9000")), "pw_token=\(token); Path=/; HttpOnly; SameSite=Strict")
        XCTAssertEqual(try cookie(nil), "pw_token=\(token); Path=/; HttpOnly; SameSite=Strict")
    }

    /// The access rule alone: without a token, the public origin's Host is accepted beside the
    /// loopback ones (with its port or none), and its Origin on state changes. (`WebDashboard`
    /// never runs a non-loopback public origin without a token: see the test above.)
    func testWithoutATokenThePublicHostIsAcceptedBesideLoopback() throws {
        let web = try WebFixture()
        web.access = WebAccess(token: nil, csrfSecret: "s3cret", publicOrigin: try origin("http://dash.internal:9000"))
        XCTAssertEqual(web.send("GET", "/api/feeds", headers: ["Host": "dash.internal:9000"]).status, 200)
        XCTAssertEqual(web.send("GET", "/api/feeds", headers: ["Host": "DASH.internal"]).status, 200)
        XCTAssertEqual(web.send("GET", "/api/feeds", headers: ["Host": "dash.internal:9001"]).status, 421)
        XCTAssertEqual(web.send("GET", "/api/feeds", headers: ["Host": "dash.internal.evil.example"]).status, 421)
        let refused = web.send("GET", "/api/feeds", headers: ["Host": "evil.example"])
        XCTAssertEqual(jsonObject(refused.text)["error"].map { "\($0)" }?.contains("or dash.internal"), true)
        let posted = web.send(
            "POST", "/api/feeds",
            headers: [
                "Host": "127.0.0.1:8080", "Content-Type": "application/json", "Origin": "http://dash.internal:9000",
            ], body: #"{"url":"http://h/c"}"#)
        XCTAssertEqual(posted.status, 201, posted.text)
    }

    /// The Origin is compared whole (scheme, host, effective port), not as host[:port] text
    /// against Host: an http page of the public name, or an https page on the server's own
    /// address, is another origin.
    func testOriginSchemeAndPortAreCompared() throws {
        let proxied = WebAccess(token: nil, csrfSecret: "s", publicOrigin: try origin("https://pods.example.net"))
        XCTAssertFalse(proxied.originAllowed("http://pods.example.net", host: "pods.example.net"))
        XCTAssertFalse(proxied.originAllowed("https://pods.example.net:8443", host: "pods.example.net"))
        XCTAssertTrue(proxied.originAllowed("https://pods.example.net", host: "pods.example.net"))
        XCTAssertTrue(proxied.originAllowed("https://PODS.example.net:443", host: "127.0.0.1:8080"))
        XCTAssertTrue(proxied.originAllowed("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        XCTAssertFalse(proxied.originAllowed("https://127.0.0.1:8080", host: "127.0.0.1:8080"))
        let direct = WebAccess(token: nil, csrfSecret: "s", publicOrigin: nil)
        XCTAssertFalse(direct.originAllowed("https://127.0.0.1:18080", host: "127.0.0.1:18080"))
        XCTAssertFalse(direct.originAllowed("http://127.0.0.1:18081", host: "127.0.0.1:18080"))
        XCTAssertFalse(direct.originAllowed("http://127.0.0.1", host: "127.0.0.1:18080"))
        XCTAssertFalse(direct.originAllowed("null", host: "127.0.0.1:18080"))
        XCTAssertTrue(direct.originAllowed("http://127.0.0.1:18080", host: "127.0.0.1:18080"))
        XCTAssertTrue(direct.originAllowed("http://localhost", host: "LOCALHOST:80"))
        XCTAssertTrue(direct.originAllowed("http://[::1]:18080", host: "[::1]:18080"))

        let web = try WebFixture()
        web.access = proxied
        let json = ["Host": "pods.example.net", "Content-Type": "application/json"]
        let downgraded = web.send(
            "POST", "/api/feeds", headers: json.merging(["Origin": "http://pods.example.net"]) { $1 },
            body: #"{"url":"http://h/a"}"#)
        XCTAssertEqual(downgraded.status, 403, downgraded.text)
        XCTAssertEqual(
            jsonObject(downgraded.text)["error"].map { "\($0)" }?.contains("cross-origin request refused"), true)
        web.access = direct
        let tls = web.send(
            "POST", "/api/feeds",
            headers: [
                "Host": "127.0.0.1:18080", "Content-Type": "application/json", "Origin": "https://127.0.0.1:18080",
            ],
            body: #"{"url":"http://h/b"}"#)
        XCTAssertEqual(tls.status, 403, tls.text)
    }
}
