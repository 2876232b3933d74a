import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import XCTest

@testable import PodcastWeb

#if canImport(Glibc)
import Glibc
#endif

/// `HTTPServer` over real sockets: evhttp's parsing, our limits, and no client able to stall the
/// loop or lock other clients out.
final class HTTPServerLimitTests: XCTestCase {
    func testRequestsRoundTripThroughEvhttp() throws {
        let harness = try ServerHarness(limits: HTTPLimits(), handler: ServerHarness.echo)
        defer { harness.stop() }
        let response = TestSocket.request(
            port: harness.port,
            "POST /a%20b?q=x+y HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nConnection: close\r\n\r\n", body: "abc")
        XCTAssertTrue(response.hasPrefix("HTTP/1.1 200 OK\r\n"), response)
        XCTAssertTrue(response.hasSuffix("\r\n\r\nPOST /a b x y 3\n"), response)
        let head = TestSocket.request(port: harness.port, "HEAD / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        XCTAssertTrue(head.hasSuffix("\r\n\r\n"), head)  // no body
        XCTAssertTrue(head.contains("Content-Length: 11\r\n"), head)
        let put = TestSocket.request(port: harness.port, "PUT / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(put.hasPrefix("HTTP/1.1 501 "), put)  // evhttp_set_allowed_methods
    }

    func testOversizedRequestsAreRefused() throws {
        let limits = HTTPLimits(maxHeaderBytes: 1024, maxHeaders: 8, maxBodyBytes: 100)
        let harness = try ServerHarness(limits: limits, handler: ServerHarness.echo)
        defer { harness.stop() }
        let manyHeaders = (0..<9).map { "X-H\($0): v\r\n" }.joined()
        let tooMany = TestSocket.request(
            port: harness.port, "GET / HTTP/1.1\r\nConnection: close\r\n" + manyHeaders + "\r\n")
        XCTAssertTrue(tooMany.hasPrefix("HTTP/1.1 431 "), tooMany)
        XCTAssertTrue(tooMany.contains(#"{"error":{"status":431,"message":"more than 8 request headers"}}"#))
        let long = TestSocket.request(
            port: harness.port,
            "GET / HTTP/1.1\r\nConnection: close\r\nX-Long: \(String(repeating: "a", count: 2000))\r\n\r\n")
        XCTAssertTrue(long.hasPrefix("HTTP/1.1 431 "), long)
        let body = TestSocket.request(
            port: harness.port, "POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: 101\r\n\r\n",
            body: String(repeating: "b", count: 101))
        XCTAssertTrue(body.hasPrefix("HTTP/1.1 413 "), body)
        let fits = TestSocket.request(
            port: harness.port, "POST / HTTP/1.1\r\nConnection: close\r\nContent-Length: 100\r\n\r\n",
            body: String(repeating: "b", count: 100))
        XCTAssertTrue(fits.hasSuffix("POST / - 100\n"), fits)
        XCTAssertEqual(harness.onLoop { harness.server.requestCount }, 4)  // all answered here, none by evhttp
    }

    /// A slowloris client keeps libevent's per-read timeout alive by sending one header byte at
    /// a time; it is closed once `requestTimeout` passed without a complete request, while
    /// other clients are served and the loop's timer keeps firing throughout.
    func testASlowlorisClientIsClosedWhileOthersAreServed() throws {
        let harness = try ServerHarness(limits: HTTPLimits(requestTimeout: 0.5), handler: ServerHarness.echo)
        defer { harness.stop() }
        guard let slow = TestSocket(port: harness.port, timeout: 0.05) else { return XCTFail("no connection") }
        slow.send("GET / HTTP/1.1\r\n")
        var closed = false
        var served = 0
        let start = Date()
        while Date().timeIntervalSince(start) < 10 {
            if !slow.send("X") || slow.isClosedByPeer() {
                closed = true
                break
            }
            let response = TestSocket.request(port: harness.port, "GET /ok HTTP/1.1\r\nConnection: close\r\n\r\n")
            if response.hasSuffix("GET /ok - 0\n") { served += 1 }
        }
        XCTAssertTrue(closed, "the slowloris connection is still open after 10 s")
        XCTAssertGreaterThan(served, 0)
        XCTAssertGreaterThan(harness.ticks.load(ordering: .relaxed), 0)
        XCTAssertGreaterThanOrEqual(harness.onLoop { harness.server.closedByLimits }, 1)
    }

    /// A handler slower than `requestTimeout` keeps its connection: the sweep must not close a
    /// connection whose request is still being handled, nor one whose reply was just handed
    /// over, so the reply reaches the client. On a virtual clock: the handler takes 0.6 s of
    /// it (three request timeouts) and the sweep runs both inside the handler and right after.
    func testASlowHandlerStillGetsItsReplyOut() throws {
        let clock = VirtualClock()
        let box = HarnessBox()
        let harness = try ServerHarness(limits: HTTPLimits(requestTimeout: 0.2), now: clock.now) { request in
            if request.path == "/slow" {  // a handler busy on the loop for 0.6 s
                clock.advance(by: .milliseconds(600))
                box.server?.sweepConnections()
                box.loop?.execute { box.server?.sweepConnections() }
            }
            return ServerHarness.echo(request)
        }
        box.server = harness.server
        box.loop = harness.loop
        defer { harness.stop() }
        for _ in 0..<3 {
            let response = TestSocket.request(
                port: harness.port, "GET /slow HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(response.hasSuffix("GET /slow - 0\n"), response)
        }
        XCTAssertEqual(harness.onLoop { harness.server.closedByLimits }, 0)
    }

    /// A kept-alive connection is idle from its last reply, not from its last request: after a
    /// handler that took three request timeouts (virtual clock) and a reply the client read whole
    /// (nothing left draining), a sweep leaves the connection to its next request.
    func testAKeptAliveConnectionIsIdleFromItsLastReply() throws {
        let clock = VirtualClock()
        let harness = try ServerHarness(limits: HTTPLimits(requestTimeout: 0.2), now: clock.now) { request in
            if request.path == "/slow" { clock.advance(by: .milliseconds(600)) }
            return ServerHarness.echo(request)
        }
        defer { harness.stop() }
        guard let client = TestSocket(port: harness.port, timeout: 5) else { return XCTFail("no connection") }
        XCTAssertTrue(client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n"))
        XCTAssertTrue(client.read(until: "GET /slow - 0\n").hasSuffix("GET /slow - 0\n"))
        harness.onLoop { harness.server.sweepConnections() }
        XCTAssertEqual(harness.onLoop { harness.server.closedByLimits }, 0)
        XCTAssertTrue(client.send("GET /next HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"))
        XCTAssertTrue(client.readToEnd().hasSuffix("GET /next - 0\n"))
    }

    /// A thousand idle connections neither stall the loop nor lock a real client out: at the
    /// connection limit the oldest idle ones are closed to make room.
    func testAThousandIdleConnectionsDoNotLockOutAClient() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 2500 {
            limit.rlim_cur = min(limit.rlim_max, 4096)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        try XCTSkipIf(limit.rlim_cur < 2500, "the descriptor limit (\(limit.rlim_cur)) is too low for 1,000 clients")
        let harness = try ServerHarness(
            limits: HTTPLimits(maxConnections: 64, requestTimeout: 30), handler: ServerHarness.echo)
        defer { harness.stop() }
        var idle: [TestSocket] = []
        for _ in 0..<1000 {
            guard let socket = TestSocket(port: harness.port, timeout: 0.01) else { continue }
            idle.append(socket)
        }
        XCTAssertEqual(idle.count, 1000)
        let ticksBefore = harness.ticks.load(ordering: .relaxed)
        let response = TestSocket.request(port: harness.port, "GET /real HTTP/1.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(response.hasSuffix("GET /real - 0\n"), response)
        // Wait (bounded) for the accept backlog to drain into the guard.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, harness.onLoop({ harness.server.closedByLimits }) < 1000 - 64 {
            usleep(20_000)
        }
        XCTAssertLessThanOrEqual(harness.onLoop { harness.server.connectionCount }, 64)
        XCTAssertGreaterThanOrEqual(harness.onLoop { harness.server.closedByLimits }, 1000 - 64)
        usleep(50_000)
        XCTAssertGreaterThan(harness.ticks.load(ordering: .relaxed), ticksBefore)
        withExtendedLifetime(idle) {}
    }

    func testAnEventStreamOverEvhttpAndItsLimit() throws {
        let hubBox = HubBox()
        let harness = try ServerHarness(limits: HTTPLimits(maxStreams: 1)) { request in
            .stream(head: HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")])) {
                hubBox.hub.add($0)
            }
        }
        defer { harness.stop() }
        guard let client = TestSocket(port: harness.port) else { return XCTFail("no connection") }
        client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
        let first = client.read(until: "event: snapshot")
        XCTAssertTrue(first.hasPrefix("HTTP/1.1 200 OK\r\n"), first)
        XCTAssertTrue(first.contains("Transfer-Encoding: chunked"), first)
        harness.onLoop {
            hubBox.hub.publish(#"{"n":1}"#)
            return 0
        }
        XCTAssertTrue(client.read(until: #"data: {"n":1}"#).contains(#"data: {"n":1}"#))
        let second = TestSocket.request(port: harness.port, "GET /events HTTP/1.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(second.hasPrefix("HTTP/1.1 503 "), second)
        XCTAssertEqual(harness.onLoop { harness.server.streamCount }, 1)
        close(client.fd)  // the client goes away: the stream and the hub forget it
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, harness.onLoop({ hubBox.hub.clientCount }) > 0 { usleep(10_000) }
        XCTAssertEqual(harness.onLoop { hubBox.hub.clientCount }, 0)
        XCTAssertEqual(harness.onLoop { harness.server.streamCount }, 0)
    }
    /// An event stream the client only reads from stays open past `streamTimeout` as long as
    /// the server writes to it (the dashboard's heartbeat): the timeout is for a stuck reader,
    /// not for a client that sends nothing.
    ///
    /// The smallest stream timeout (50 ms) and a heartbeat every 20 ms for six times that: each
    /// heartbeat is read by the client before the next is sent, so every write reached it, and
    /// the stream outlived its timeout several times over without a sleep longer than 20 ms.
    func testAQuietClientKeepsItsEventStreamWhileItIsWrittenTo() throws {
        let hubBox = HubBox()
        let limits = HTTPLimits(requestTimeout: 0.05, streamTimeout: 0.05)
        XCTAssertEqual(limits.streamTimeout, 0.05)  // the smallest HTTPLimits allows
        let harness = try ServerHarness(limits: limits) { _ in
            .stream(head: HTTPResponse(status: 200)) { hubBox.hub.add($0) }
        }
        defer { harness.stop() }
        guard let client = TestSocket(port: harness.port, timeout: 5) else { return XCTFail("no connection") }
        client.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = client.read(until: "event: snapshot")
        let started = ContinuousClock.now
        var beats = 0
        while ContinuousClock.now - started < .milliseconds(300) {
            usleep(20_000)
            harness.onLoop { hubBox.hub.heartbeat() }
            XCTAssertTrue(client.read(until: ": keep-alive\n\n").contains(": keep-alive\n\n"), "beat \(beats + 1)")
            beats += 1
        }
        XCTAssertGreaterThanOrEqual(beats, 3)
        harness.onLoop { hubBox.hub.publish(#"{"n":2}"#) }
        XCTAssertTrue(client.read(until: #"data: {"n":2}"#).contains(#"data: {"n":2}"#))
        XCTAssertEqual(harness.onLoop { hubBox.hub.clientCount }, 1)
    }
}

final class HubBox: @unchecked Sendable {
    let hub = SSEHub(snapshot: { "{}" })
}

/// A monotonic clock that moves only when told (any thread).
final class VirtualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = MonotonicInstant.now()
    func now() -> MonotonicInstant { lock.withLock { current } }
    func advance(by stride: MonotonicInstant.Stride) { lock.withLock { current = current.advanced(by: stride) } }
}

/// The server and loop a handler reaches back to (set once the harness exists).
final class HarnessBox: @unchecked Sendable {
    var server: HTTPServer?
    var loop: EventLoop?
}
