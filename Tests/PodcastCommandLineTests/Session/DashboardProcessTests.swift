import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastWeb

/// `run --http` in the real binary: the banner names the port, the API answers while the daemon
/// polls, and SIGTERM still stops it cleanly.
extension DaemonProcessTests {
    func testRunHTTPServesTheAPIBesideThePollingAndStopsCleanly() throws {
        server.route("/a", .ok(TestFeeds.rss(["a1", "a2"])))
        try withStore { try $0.add(url: server.url("/a")) }
        let child = try start("run", "--json", "--http", "127.0.0.1:0")
        XCTAssertTrue(child.wait { child.events("feed_updated").count == 1 })
        XCTAssertTrue(child.wait { child.stderr.contains("dashboard at http://127.0.0.1:") })
        let port = child.stderr.components(separatedBy: "dashboard at http://127.0.0.1:").last
            .flatMap { UInt16($0.prefix { $0.isNumber }) }
        guard let port else { return XCTFail("no port in \(child.stderr)") }
        let response = TestSocket.request(
            port: port, "GET /api/feeds/1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), response)
        let body = jsonObject(String(response.split(separator: "\r\n\r\n", maxSplits: 1).last ?? ""))
        let feed = body["feed"] as? [String: Any]
        XCTAssertEqual(feed?["status"] as? String, "ok")
        XCTAssertEqual(feed?["episode_count"] as? Int, 2)
        let metrics = TestSocket.request(
            port: port, "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(metrics.contains("podcast_watch_polls_total{outcome=\"fetched\"} 1\n"), metrics)
        // An error the server answers before the router still carries the dashboard's headers.
        let put = TestSocket.request(
            port: port, "PUT /api/feeds HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(put.hasPrefix("HTTP/1.1 501 "), put)
        XCTAssertTrue(put.contains("\r\nContent-Security-Policy: \(WebRouter.contentSecurityPolicy)\r\n"), put)
        XCTAssertTrue(put.contains("\r\nX-Frame-Options: DENY\r\n"), put)
        XCTAssertTrue(put.contains("\r\nCache-Control: no-store\r\n"), put)
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
    }

    /// A port already in use is exit status 7 (`addressUnavailable`) with the system's reason,
    /// not 4 (an input file error).
    func testRunHTTPOnAPortInUseExitsWithStatus7() throws {
        let occupant = try ServerHarness(limits: HTTPLimits(), handler: ServerHarness.echo)
        defer { occupant.stop() }
        let child = try start("run", "--http", "127.0.0.1:\(occupant.port)")
        XCTAssertEqual(child.finish(), ExitCode.addressUnavailable.rawValue)
        XCTAssertEqual(ExitCode.addressUnavailable.rawValue, 7)
        XCTAssertTrue(
            child.stderr.contains(
                "cannot serve the dashboard: cannot listen on 127.0.0.1 port \(occupant.port): Address already in use"),
            child.stderr)
    }
}
