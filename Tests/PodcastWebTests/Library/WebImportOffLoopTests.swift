import Foundation
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastWeb

/// The web OPML import parses on a worker (`HeldExecutor`, from ParseBudgetTests, holds the
/// job until the test finishes it): the request handler returns at once, with nothing parsed
/// or subscribed, and the answer goes out when the worker's result is back on the loop.
final class WebImportOffLoopTests: XCTestCase {
    static let opml =
        #"{"opml":"<opml version=\"2.0\"><body><outline xmlUrl=\"http://h/c\"/><outline xmlUrl=\"http://h/a\"/><outline xmlUrl=\"file:///etc/passwd\"/></body></opml>"}"#

    func testTheAPIImportAnswersOnceTheWorkerIsDone() throws {
        let web = try WebFixture()
        let held = HeldExecutor()
        let router = WebRouter(
            data: web.data, control: web.control, access: web.access, metrics: web.metrics, hub: nil, offLoop: held)
        let request = HTTPRequest(
            method: "POST", target: "/api/import",
            headers: ["Host": "127.0.0.1:8080", "Content-Type": "application/json"], body: Array(Self.opml.utf8))
        guard case .deferred(let start) = router.reply(request) else { return XCTFail("not deferred") }
        var answers: [HTTPResponse] = []
        start { answers.append($0) }
        XCTAssertEqual(answers.count, 0)
        XCTAssertEqual(held.jobs.count, 1)
        XCTAssertEqual(try web.store.feeds().count, 2)  // nothing subscribed before the parse is back
        held.jobs[0].finish()
        XCTAssertEqual(answers.count, 1)
        XCTAssertEqual(answers.first?.status, 200)
        XCTAssertEqual(answers.first?.text, #"{"added":1,"existing":1,"skipped":1}"# + "\n")
        XCTAssertEqual(answers.first?.header("X-Frame-Options"), "DENY")  // the router's headers on a late answer
        XCTAssertEqual(try web.store.feeds().map(\.url), ["http://h/a", "http://h/b", "http://h/c"])
    }

    func testTheFormImportAnswersOnceTheWorkerIsDone() throws {
        let web = try WebFixture()
        let held = HeldExecutor()
        let router = WebRouter(
            data: web.data, control: web.control, access: web.access, metrics: web.metrics, hub: nil, offLoop: held)
        let boundary = "XyZ"
        let body =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ns3cret\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"opml\"; filename=\"s.opml\"\r\nContent-Type: text/x-opml\r\n\r\n<opml><body>"
            + (0...WebImportSummary.maxOutlines).map { "<outline xmlUrl=\"http://h/n\($0)\"/>" }.joined()
            + "</body></opml>\r\n--\(boundary)--\r\n"
        let request = HTTPRequest(
            method: "POST", target: "/import",
            headers: ["Host": "127.0.0.1:8080", "Content-Type": "multipart/form-data; boundary=\(boundary)"],
            body: Array(body.utf8))
        guard case .deferred(let start) = router.reply(request) else { return XCTFail("not deferred") }
        var answers: [HTTPResponse] = []
        start { answers.append($0) }
        XCTAssertEqual(answers.count, 0)
        held.jobs[0].finish()
        XCTAssertEqual(answers.map(\.status), [303])
        XCTAssertEqual(answers.first?.header("Location"), "/?done=error-opml-size")  // the cap, checked on the worker
        XCTAssertEqual(try web.store.feeds().count, 2)
    }

    /// Through evhttp: a deferred answer reaches the client; one whose client left, or whose
    /// server closed, in between is dropped without harm.
    func testDeferredRepliesOverEvhttp() throws {
        let box = RespondBox()
        let harness = try ServerHarness(limits: HTTPLimits()) { request in
            .deferred { respond in box.set(request.path, respond) }
        }
        defer { harness.stop() }
        guard let client = TestSocket(port: harness.port, timeout: 5) else { return XCTFail("no connection") }
        client.send("GET /late HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(box.wait(for: "/late"))
        // Two more turns of the server's loop after the handler deferred: a reply written then
        // would have been flushed to the socket by now (loopback delivers at once).
        harness.onLoop { 0 }
        harness.onLoop { 0 }
        var byte: UInt8 = 0
        let n = recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT))
        XCTAssertTrue(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK), "\(n)")  // nothing sent yet
        harness.onLoop {
            box.take("/late")?(.text("at last\n"))
            return 0
        }
        XCTAssertTrue(client.readToEnd().hasSuffix("\r\n\r\nat last\n"))

        guard let gone = TestSocket(port: harness.port, timeout: 5) else { return XCTFail("no connection") }
        gone.send("GET /gone HTTP/1.1\r\nHost: t\r\n\r\n")
        XCTAssertTrue(box.wait(for: "/gone"))
        close(gone.fd)
        // On loopback the FIN is in the server's socket once close returns; two turns of the
        // server's loop let it see that if it reads (evhttp does not read while a request waits
        // for its answer: the late answer's write is what finds the client gone).
        harness.onLoop { 0 }
        harness.onLoop { 0 }
        harness.onLoop {
            box.take("/gone")?(.text("nobody\n"))
            return 0
        }
        // The server still serves, and closing it with an answer pending is safe.
        guard let third = TestSocket(port: harness.port, timeout: 5) else { return XCTFail("no connection") }
        third.send("GET /pending HTTP/1.1\r\nHost: t\r\n\r\n")
        XCTAssertTrue(box.wait(for: "/pending"))
        harness.onLoop {
            harness.server.close()
            box.take("/pending")?(.text("too late\n"))
            return 0
        }
        XCTAssertEqual(third.readToEnd(), "")
    }
}

final class RespondBox: @unchecked Sendable {
    private let lock = NSLock()
    private var responders: [String: (HTTPResponse) -> Void] = [:]

    func set(_ path: String, _ respond: @escaping (HTTPResponse) -> Void) {
        lock.withLock { responders[path] = respond }
    }

    func take(_ path: String) -> ((HTTPResponse) -> Void)? {
        lock.withLock { responders.removeValue(forKey: path) }
    }

    func wait(for path: String) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if lock.withLock({ responders[path] != nil }) { return true }
            usleep(5000)
        }
        return false
    }
}
