import Foundation
import XCTest

@testable import PodcastKit

/// The errors `HTTPServer` answers before a handler runs are JSON with `errorHeaders` (the
/// dashboard's security headers), not libevent's HTML pages; what libevent 2.1 still answers
/// itself is pinned here too, so a change in it shows.
final class HTTPServerErrorTests: XCTestCase {
    static let marker = ("X-Test-Security", "on")

    private func harness(_ limits: HTTPLimits = HTTPLimits()) throws -> ServerHarness {
        let harness = try ServerHarness(limits: limits, handler: HTTPServerLimitTests.echo)
        harness.onLoop {
            harness.server.errorHeaders = [HTTPServerErrorTests.marker]
            return 0
        }
        return harness
    }

    /// Status line, then whether our header and JSON error are there.
    private func assertOurs(_ response: String, _ status: Int, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 \(status) "), response, file: file, line: line)
        XCTAssertTrue(response.contains("\r\nX-Test-Security: on\r\n"), response, file: file, line: line)
        XCTAssertTrue(response.contains("\r\nContent-Type: application/json; charset=utf-8\r\n"), response, file: file, line: line)
        XCTAssertTrue(
            response.hasSuffix("\r\n\r\n{\"error\":{\"status\":\(status),\"message\":\"\(message)\"}}\n"), response,
            file: file, line: line)
    }

    func testUnservedMethodsGetOurJSON501() throws {
        let harness = try harness()
        defer { harness.stop() }
        for method in ["PUT", "PATCH", "OPTIONS", "TRACE"] {
            let response = TestSocket.request(
                port: harness.port, "\(method) /api/feeds HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            assertOurs(response, 501, "method \(method) is not implemented here; use GET, HEAD, POST or DELETE")
        }
        XCTAssertEqual(harness.onLoop { harness.server.requestCount }, 4)
    }

    func testBodiesAndHeadersOverOurLimitsGetOurJSON() throws {
        let harness = try harness(HTTPLimits(maxHeaderBytes: 1024, maxBodyBytes: 100))
        defer { harness.stop() }
        let body = TestSocket.request(
            port: harness.port, "POST / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 101\r\n\r\n",
            body: String(repeating: "b", count: 101))
        assertOurs(body, 413, "the request body is 101 bytes, more than 100")
        let chunked = TestSocket.request(
            port: harness.port,
            "POST / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n",
            body: "65\r\n" + String(repeating: "c", count: 101) + "\r\n0\r\n\r\n")
        assertOurs(chunked, 413, "the request body is 101 bytes, more than 100")
        // "GET / HTTP/1.1\r\n" 16 + "host: t\r\n" 9 + "connection: close\r\n" 19 + "x-long: " 8 + 990 + 2.
        let long = TestSocket.request(
            port: harness.port,
            "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Long: \(String(repeating: "a", count: 990))\r\n\r\n")
        assertOurs(long, 431, "the request line and headers are 1044 bytes, more than 1024")
        let fits = TestSocket.request(
            port: harness.port,
            "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Long: \(String(repeating: "a", count: 900))\r\n\r\n")
        XCTAssertTrue(fits.hasSuffix("GET / - 0\n"), fits)
    }

    /// What never reaches `serve`: libevent's own page, which reflects nothing of the request.
    func testWhatLibeventStillAnswersItself() throws {
        let harness = try harness(HTTPLimits(maxHeaderBytes: 1024, maxBodyBytes: 100))
        defer { harness.stop() }
        let cases: [(String, String, String)] = [
            ("FOO /<script> HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", "unknown method", "501 Not Implemented"),
            ("GET /<script> HTTP/9.9\r\nHost: t\r\nConnection: close\r\n\r\n", "bad version", "400 Bad Request"),
            (
                "GET / HTTP/1.1\r\nHost: t\r\n<script>\r\nConnection: close\r\n\r\n", "header line without a colon",
                "400 Bad Request"
            ),
            (
                "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: <script>\r\nConnection: close\r\n\r\n", "bad length",
                "400 Bad Request"
            ),
            (
                "POST / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: \(HTTPLimits(maxBodyBytes: 100).evhttpBodyBytes + 1)\r\n\r\n",
                "body beyond evhttp's limit", "413 Request Entity Too Large"
            ),
        ]
        for (request, name, status) in cases {
            let response = TestSocket.request(port: harness.port, request)
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(name): \(response)")
            XCTAssertTrue(response.contains("\r\nConnection: close\r\n"), "\(name): \(response)")
            XCTAssertFalse(response.contains("<script>"), "\(name): \(response)")
        }
        XCTAssertEqual(harness.onLoop { harness.server.requestCount }, 0)
    }
}
