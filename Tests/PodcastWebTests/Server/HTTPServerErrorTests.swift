import Foundation
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastWeb

/// The errors `HTTPServer` answers before a handler runs are JSON with `errorHeaders` (the
/// dashboard's security headers), not libevent's HTML pages; what libevent 2.1 still answers
/// itself is pinned here too, so a change in it shows.
final class HTTPServerErrorTests: XCTestCase {
    static let marker = ("X-Test-Security", "on")

    private func harness(_ limits: HTTPLimits = HTTPLimits()) throws -> ServerHarness {
        let harness = try ServerHarness(limits: limits, handler: ServerHarness.echo)
        harness.onLoop {
            harness.server.errorHeaders = [HTTPServerErrorTests.marker]
            return 0
        }
        return harness
    }

    /// Status line, then whether our header and JSON error are there.
    private func assertOurs(
        _ response: String, _ status: Int, _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 \(status) "), response, file: file, line: line)
        XCTAssertTrue(response.contains("\r\nX-Test-Security: on\r\n"), response, file: file, line: line)
        XCTAssertTrue(
            response.contains("\r\nContent-Type: application/json; charset=utf-8\r\n"), response, file: file, line: line
        )
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
            XCTAssertTrue(response.hasPrefix("HTTP/1.1 501 Not Implemented\r\n"), response)
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
                "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n<script>\r\n0\r\n\r\n",
                "malformed chunk size", "413 Request Entity Too Large"
            ),
            (
                "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3;x=<script>\r\nabc\r\n0\r\n\r\n",
                "chunk extension", "413 Request Entity Too Large"
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

/// Requests whose body framing or `Host` is ambiguous are refused with `400` and the
/// connection closed, so nothing smuggled behind them is served (RFC 9112 §6.3, §3.2).
final class HTTPFramingTests: XCTestCase {
    /// `message`: our JSON error's; `nil` when evhttp refuses the request itself (its page,
    /// `Connection: close`, the handler never called).
    private func refused(_ head: String, _ message: String?, file: StaticString = #filePath, line: UInt = #line) throws
    {
        let harness = try ServerHarness(limits: HTTPLimits(), handler: ServerHarness.echo)
        defer { harness.stop() }
        harness.onLoop {
            harness.server.errorHeaders = [HTTPServerErrorTests.marker]
            return 0
        }
        // Keep-alive, with a second request behind the first: it must never be answered.
        let smuggled = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"
        guard let socket = TestSocket(port: harness.port, timeout: 5) else { return XCTFail("no connection") }
        socket.send(head + smuggled)
        let response = socket.readToEnd()
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), response, file: file, line: line)
        XCTAssertTrue(response.contains("\r\nConnection: close\r\n"), response, file: file, line: line)
        XCTAssertFalse(response.contains("smuggled"), response, file: file, line: line)
        guard let message else {
            XCTAssertTrue(
                response.hasSuffix("<H1>Bad Request</H1>\n</BODY></HTML>\n"), response, file: file, line: line)
            XCTAssertEqual(harness.onLoop { harness.server.requestCount }, 0, file: file, line: line)
            return
        }
        XCTAssertTrue(response.contains("\r\nX-Test-Security: on\r\n"), response, file: file, line: line)
        let json = "{\"error\":{\"status\":400,\"message\":\"\(message)\"}}\n"
        if head.hasPrefix("HEAD ") {
            // The length of the JSON error, no body.
            XCTAssertTrue(
                response.contains("\r\nContent-Length: \(json.utf8.count)\r\n"), response, file: file, line: line)
            XCTAssertTrue(response.hasSuffix("\r\n\r\n"), response, file: file, line: line)
        } else {
            XCTAssertTrue(response.hasSuffix(json), response, file: file, line: line)
        }
        XCTAssertEqual(harness.onLoop { harness.server.requestCount }, 1, file: file, line: line)
    }

    func testTwoContentLengthsAreRefused() throws {
        try refused(
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n",
            "more than one Content-Length header")
        try refused(
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n",
            "more than one Content-Length header")
        try refused(
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: +0\r\n\r\n", "Content-Length must be a number of bytes")
    }

    /// evhttp 2.1.12 itself refuses a length with a chunked body and a repeated
    /// `Transfer-Encoding` (400, closed); the checks in `HTTPServer` stay for a libevent that
    /// would let them through, and are tested directly.
    func testContentLengthWithTransferEncodingIsRefused() throws {
        try refused(
            "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", nil)
        try refused(
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            nil)
        try refused(
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
            "Transfer-Encoding must be chunked (alone)")
        XCTAssertEqual(
            HTTPServer.framingProblem(["transfer-encoding": 2], ["transfer-encoding": "chunked"]),
            "more than one Transfer-Encoding header")
        XCTAssertEqual(
            HTTPServer.framingProblem(
                ["content-length": 1, "transfer-encoding": 1],
                ["content-length": "5", "transfer-encoding": "chunked"]),
            "both Content-Length and Transfer-Encoding")
        XCTAssertNil(HTTPServer.framingProblem(["transfer-encoding": 1], ["transfer-encoding": " Chunked"]))
    }

    /// evhttp 2.1.12 reads no body for HEAD (`evhttp_method_may_have_body`): a length or a
    /// chunked coding on one would leave the body to be parsed as the next request. Refused,
    /// closed, so the request behind it (the "body") is never answered.
    func testBodyOnAMethodEvhttpReadsNoBodyForIsRefused() throws {
        let smuggledCount = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n".utf8.count
        try refused(
            "HEAD /a HTTP/1.1\r\nHost: t\r\nContent-Length: \(smuggledCount)\r\n\r\n",
            "a HEAD request cannot have a body")
        try refused(
            "HEAD /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n",
            "a HEAD request cannot have a body")
        try refused(
            "TRACE /a HTTP/1.1\r\nHost: t\r\nContent-Length: \(smuggledCount)\r\n\r\n",
            "a TRACE request cannot have a body")
        XCTAssertNil(HTTPServer.unreadBodyProblem(method: "HEAD", ["content-length": "0"]))
        XCTAssertNil(HTTPServer.unreadBodyProblem(method: "GET", ["content-length": "5"]))
    }

    /// GET, DELETE, OPTIONS, PUT, PATCH and CONNECT bodies are read by evhttp 2.1.12: the
    /// "request" inside one is never served, and the connection stays usable.
    func testBodyOnOtherMethodsIsReadNotSmuggled() throws {
        let harness = try ServerHarness(limits: HTTPLimits(), handler: ServerHarness.echo)
        defer { harness.stop() }
        let inner = "GET /smuggled HTTP/1.1\r\nHost: t\r\n\r\n"
        let response = TestSocket.request(
            port: harness.port,
            "GET /a HTTP/1.1\r\nHost: t\r\nContent-Length: \(inner.utf8.count)\r\n\r\n\(inner)"
                + "DELETE /b HTTP/1.1\r\nHost: t\r\nContent-Length: \(inner.utf8.count)\r\n\r\n\(inner)"
                + "GET /c HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        XCTAssertFalse(response.contains("smuggled"), response)
        XCTAssertTrue(response.contains("GET /a - \(inner.utf8.count)\n"), response)
        XCTAssertTrue(response.contains("DELETE /b - \(inner.utf8.count)\n"), response)
        XCTAssertTrue(response.hasSuffix("GET /c - 0\n"), response)
        XCTAssertEqual(harness.onLoop { harness.server.requestCount }, 3)
        // The methods we answer 501 read their bodies too: nothing behind them is served.
        for method in ["OPTIONS", "PUT", "PATCH", "CONNECT"] {
            let refused = TestSocket.request(
                port: harness.port,
                "\(method) /a HTTP/1.1\r\nHost: t\r\nContent-Length: \(inner.utf8.count)\r\n\r\n\(inner)"
                    + "GET /c HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(refused.hasPrefix("HTTP/1.1 501 Not Implemented\r\n"), refused)
            XCTAssertFalse(refused.contains("smuggled"), refused)
            XCTAssertTrue(refused.hasSuffix("GET /c - 0\n"), refused)
        }
    }

    /// `Transfer-Encoding : chunked` (space before the colon) was stored by evhttp under the
    /// name "transfer-encoding " and slipped past the Content-Length + Transfer-Encoding rule.
    func testHeaderNameThatIsNotATokenIsRefused() throws {
        let message = HTTPServer.badHeaderNameProblem
        try refused(
            "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding : chunked\r\nContent-Length: 2\r\n\r\n0\r\n\r\n",
            message)
        try refused("GET / HTTP/1.1\r\nHost: t\r\nX\tY: 1\r\n\r\n", message)
        try refused("GET / HTTP/1.1\r\nHost: t\r\nX(Y): 1\r\n\r\n", message)
        XCTAssertTrue(HTTPServer.isToken("X-Forwarded-For!#$%&'*+.^_`|~09"))
        XCTAssertFalse(HTTPServer.isToken(""))
        XCTAssertFalse(HTTPServer.isToken("Host "))
        XCTAssertFalse(HTTPServer.isToken("Hö"))
    }

    func testTwoHostsAreRefused() throws {
        try refused("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", "more than one Host header")
    }

    /// One chunked body and one plain length still work, on the same keep-alive connection.
    func testOrdinaryFramingStillWorks() throws {
        let harness = try ServerHarness(limits: HTTPLimits(), handler: ServerHarness.echo)
        defer { harness.stop() }
        let response = TestSocket.request(
            port: harness.port,
            "POST /a HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                + "POST /b HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nConnection: close\r\n\r\nxy")
        XCTAssertTrue(response.contains("POST /a - 3\n"), response)
        XCTAssertTrue(response.hasSuffix("POST /b - 2\n"), response)
    }
}
