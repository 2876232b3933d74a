import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// The fetcher against the loopback evhttp server, on a real loop.
@Suite(.serialized) struct HTTPFetcherTests {
    let feed = "<rss version=\"2.0\"><channel><title>Loopback</title></channel></rss>"

    @Test func okBodyAndHeaders() throws {
        let h = try FetchHarness()
        h.server.route("/feed.xml", .ok(feed, headers: [("ETag", "\"v1\"")]))
        let response = try #require(h.fetch("/feed.xml")?.value)
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == feed)
        #expect(response.contentType == "application/rss+xml")
        #expect(response.etag == "\"v1\"")
        #expect(response.effectiveURL == h.server.url("/feed.xml"))
        #expect(response.permanentRedirect == nil)
        let request = try #require(h.server.requests.first)
        #expect(h.server.requests.count == 1)
        #expect(request.headers["user-agent"] == "podcast-watch/0.1")
        #expect(request.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(request.headers["if-none-match"] == nil)
        #expect(request.headers["if-modified-since"] == nil)
    }

    @Test func conditionalGetWithBothValidators() throws {
        let h = try FetchHarness()
        let lm = "Tue, 14 Nov 2023 22:13:20 GMT"
        h.server.routeConditional("/feed.xml", body: feed, etag: "\"abc\"", lastModified: lm)
        let first = try #require(h.fetch("/feed.xml")?.value)
        #expect(first.status == 200)
        #expect(first.etag == "\"abc\"")
        #expect(first.lastModified == lm)

        let second = try #require(
            h.fetch(FetchRequest(url: h.server.url("/feed.xml"), etag: first.etag, lastModified: first.lastModified))?
                .value)
        #expect(second.status == 304)
        #expect(second.isNotModified)
        #expect(second.body.isEmpty)
        let sent = h.server.requests[1]
        #expect(sent.headers["if-none-match"] == "\"abc\"")
        #expect(sent.headers["if-modified-since"] == lm)

        let onlyDate = try #require(h.fetch(FetchRequest(url: h.server.url("/feed.xml"), lastModified: lm))?.value)
        #expect(onlyDate.status == 304)
        #expect(h.server.requestCount("/feed.xml") == 3)
    }

    @Test func permanentRedirectIsReported() throws {
        let h = try FetchHarness()
        h.server.route("/old", .redirect(301, to: "/new"))
        h.server.route("/new", .ok(feed))
        let response = try #require(h.fetch("/old")?.value)
        #expect(response.status == 200)
        #expect(response.effectiveURL == h.server.url("/new"))
        #expect(response.permanentRedirect == PermanentRedirect(url: h.server.url("/new"), status: 301))
        #expect(h.server.requestCount("/old") == 1)
        #expect(h.server.requestCount("/new") == 1)
    }

    @Test func permanentRunEndsAtFirstTemporaryHop() throws {
        let h = try FetchHarness()
        h.server.route("/a", .redirect(308, to: "/b"))
        h.server.route("/b", .redirect(301, to: "/c"))
        h.server.route("/c", .redirect(302, to: "/d"))
        h.server.route("/d", .redirect(301, to: "/e"))
        h.server.route("/e", .ok(feed))
        let response = try #require(h.fetch("/a")?.value)
        #expect(response.effectiveURL == h.server.url("/e"))
        #expect(response.permanentRedirect == PermanentRedirect(url: h.server.url("/c"), status: 308))
    }

    @Test func temporaryRedirectIsNotPermanent() throws {
        let h = try FetchHarness()
        h.server.route("/old", .redirect(302, to: "/new"))
        h.server.route("/tmp", .redirect(307, to: "/new"))
        h.server.route("/new", .ok(feed))
        let r302 = try #require(h.fetch("/old")?.value)
        #expect(r302.effectiveURL == h.server.url("/new"))
        #expect(r302.permanentRedirect == nil)
        let r307 = try #require(h.fetch("/tmp")?.value)
        #expect(r307.permanentRedirect == nil)
    }

    @Test func redirectLoopIsCutOff() throws {
        let h = try FetchHarness()
        h.server.route("/a", .redirect(302, to: "/b"))
        h.server.route("/b", .redirect(302, to: "/a"))
        let error = try #require(h.fetch("/a")?.error)
        #expect(error.kind == .redirectLoop)
        #expect(h.server.requestCount("/a") == 1)
        #expect(h.server.requestCount("/b") == 1)
    }

    @Test func tooManyRedirects() throws {
        let h = try FetchHarness()
        for i in 1...8 { h.server.route("/r\(i)", .redirect(301, to: "/r\(i + 1)")) }
        let error = try #require(h.fetch("/r1")?.error)
        #expect(error.kind == .tooManyRedirects)
        #expect(h.server.requests.map(\.uri) == ["/r1", "/r2", "/r3", "/r4", "/r5", "/r6"])
        #expect(error.permanentRedirect == PermanentRedirect(url: h.server.url("/r6"), status: 301))
    }

    @Test func gzipIsDecoded() throws {
        let h = try FetchHarness()
        let big = feed + String(repeating: "<!-- padding -->", count: 5000)
        h.server.route("/gz", .gzip(big))
        let response = try #require(h.fetch("/gz")?.value)
        #expect(response.headers["content-encoding"] == "gzip")
        #expect(response.body == Data(big.utf8))
    }

    @Test func decompressionBombIsRefused() throws {
        let h = try FetchHarness()
        let bomb = TestGzip.bomb(runs: 8_000)
        #expect(bomb.compressed.count < 20_000)
        #expect(bomb.inflatedSize == 2_064_001)
        h.server.route(
            "/bomb",
            TestHTTPServer.Response(status: 200, headers: [("Content-Encoding", "gzip")], body: bomb.compressed))
        let limits = FetchLimits(
            connectTimeout: 2, totalTimeout: 5, maxResponseBytes: 100_000, maxDecodedBytes: 1_000_000)
        let error = try #require(h.fetch("/bomb", limits: limits)?.error)
        #expect(error.kind == .tooLarge(decoded: true))
        // Under the decoded cap, the same body inflates completely.
        let roomy = FetchLimits(
            connectTimeout: 2, totalTimeout: 5, maxResponseBytes: 100_000, maxDecodedBytes: 3_000_000)
        let response = try #require(h.fetch("/bomb", limits: roomy)?.value)
        #expect(response.body.count == 2_064_001)
    }

    /// A server that never answers within the test, and the smallest total timeout the limits
    /// allow (1 ms): the fetch ends once, as a timeout of that URL, whether libcurl was still
    /// connecting or waiting for the answer; nothing about how long it took is asserted.
    @Test func slowServerHitsTheTimeout() throws {
        let h = try FetchHarness()
        var stalled = TestHTTPServer.Response.ok(feed)
        stalled.delay = 30  // the server stops at the test's end, long before
        h.server.route("/slow", stalled)
        let results = h.run([
            FetchRequest(url: h.server.url("/slow"), limits: FetchLimits(connectTimeout: 2, totalTimeout: 0))
        ])
        #expect(results.count == 1)
        let error = try #require(results.first?.error)
        #expect(error.kind == .timeout)
        #expect(error.url == h.server.url("/slow"))
        #expect(error.message.hasPrefix("timed out"), "\(error.message)")
        #expect(h.server.requestCount("/slow") <= 1)
    }

    @Test func oversizeBodyIsRefused() throws {
        let h = try FetchHarness()
        let body = String(repeating: "x", count: 300_000)
        h.server.route("/big", .ok(body))
        var chunked = TestHTTPServer.Response.ok(body)
        chunked.chunked = true
        h.server.route("/big-chunked", chunked)
        let limits = FetchLimits(connectTimeout: 2, totalTimeout: 5, maxResponseBytes: 100_000)
        let declared = try #require(h.fetch("/big", limits: limits)?.error)
        #expect(declared.kind == .tooLarge(decoded: false))
        let streamed = try #require(h.fetch("/big-chunked", limits: limits)?.error)
        #expect(streamed.kind == .tooLarge(decoded: false))
        // The same bodies under a larger cap arrive whole.
        let roomy = FetchLimits(connectTimeout: 2, totalTimeout: 5, maxResponseBytes: 400_000)
        #expect(h.fetch("/big-chunked", limits: roomy)?.value?.body.count == 300_000)
    }

    @Test func serverErrorIsReported() throws {
        let h = try FetchHarness()
        h.server.route("/boom", .status(500, "oops"))
        h.server.route("/gone", .status(410))
        let error = try #require(h.fetch("/boom")?.error)
        #expect(error.kind == .httpStatus(500))
        #expect(error.status == 500)
        #expect(error.message == "HTTP 500 Internal Server Error")
        #expect(error.retryAfter() == nil)
        #expect(h.fetch("/gone")?.error?.kind == .httpStatus(410))
        h.server.route("/busy", TestHTTPServer.Response(status: 503, headers: [("Retry-After", "120")]))
        let busy = try #require(h.fetch("/busy")?.error)
        #expect(busy.kind == .httpStatus(503))
        #expect(busy.headers["retry-after"] == "120")
        #expect(busy.retryAfter() == 120)
        h.server.route(
            "/later", TestHTTPServer.Response(status: 429, headers: [("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]))
        let later = try #require(h.fetch("/later")?.error)
        #expect(later.retryAfter(now: Date(timeIntervalSince1970: 784_111_777 - 30)) == 30)
        #expect(h.fetch("/missing")?.error?.kind == .httpStatus(404))
    }

    @Test func connectionRefused() throws {
        let h = try FetchHarness()
        let port = try unusedPort()
        let error = try #require(
            h.fetch(
                FetchRequest(url: "http://127.0.0.1:\(port)/x", limits: FetchLimits(connectTimeout: 2, totalTimeout: 5))
            )?.error)
        #expect(error.kind == .connect)
        #expect(error.url == "http://127.0.0.1:\(port)/x")
    }

    /// A loopback port nobody listens on: bound, read back, closed.
    func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(ok)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func tlsToAPlainServerIsATLSError() throws {
        let h = try FetchHarness()
        h.server.route("/feed.xml", .ok(feed))
        let error = try #require(
            h.fetch(
                FetchRequest(
                    url: "https://127.0.0.1:\(h.server.port)/feed.xml",
                    limits: FetchLimits(connectTimeout: 2, totalTimeout: 5)))?.error)
        #expect(error.kind == .tls)
    }

    @Test func releasingTheFetcherMidFetchCallsNothing() throws {
        let loop = try EventLoop()
        let server = try TestHTTPServer()
        var slow = TestHTTPServer.Response.ok(feed)
        slow.delay = 0.3
        server.route("/slow", slow)
        var calls = 0
        var fetcher: HTTPFetcher? = HTTPFetcher(loop: loop)
        let token = fetcher?.fetch(FetchRequest(url: server.url("/slow"))) { _ in calls += 1 }
        // Let the request reach the server, then drop the fetcher.
        var arrived = false
        var polls = 0
        let poll = loop.scheduleRepeatingTimer(every: .milliseconds(5)) {
            polls += 1
            arrived = server.requestCount("/slow") == 1
        }
        while !arrived && polls < 1000 { loop.runOnce(blocking: true) }
        poll.cancel()
        try #require(arrived)
        fetcher = nil
        token?.cancel()  // a no-op once the fetcher is gone
        // Wait for the server to send its held-back reply, then give the loop the few turns a
        // live fetcher would need to read it (its socket is ready by then): no callback comes.
        var sent = false
        polls = 0
        let watch = loop.scheduleRepeatingTimer(every: .milliseconds(5)) {
            polls += 1
            sent = server.delayedRepliesSent == 1
        }
        while !sent && polls < 1000 { loop.runOnce(blocking: true) }
        watch.cancel()
        try #require(sent)
        var settled = false
        let settle = loop.scheduleTimer(after: .milliseconds(20)) { settled = true }
        while !settled { loop.runOnce(blocking: true) }
        settle.cancel()
        #expect(calls == 0)
    }

    @Test func unsupportedSchemeIsInvalid() throws {
        let h = try FetchHarness()
        let error = try #require(h.fetch(FetchRequest(url: "ftp://127.0.0.1/feed.xml"))?.error)
        #expect(error.kind == .invalidURL)
        #expect(error.message == "unsupported scheme \"ftp\"")
    }

    @Test func concurrentFetchesAllComplete() throws {
        let h = try FetchHarness()
        for i in 0..<10 { h.server.route("/f\(i)", .ok("feed \(i)")) }
        let results = h.run((0..<10).map { FetchRequest(url: h.server.url("/f\($0)")) })
        #expect(results.count == 10)
        let bodies = Set(results.compactMap { $0.value.map { String(decoding: $0.body, as: UTF8.self) } })
        #expect(bodies == Set((0..<10).map { "feed \($0)" }))
        #expect(h.server.requests.count == 10)
        #expect(h.fetcher.activeCount == 0)
    }

    @Test func cancelledFetchNeverCompletes() throws {
        let h = try FetchHarness()
        var slow = TestHTTPServer.Response.ok(feed)
        slow.delay = 0.2
        h.server.route("/slow", slow)
        h.server.route("/fast", .ok(feed))
        var cancelledCalls = 0
        let token = h.fetcher.fetch(FetchRequest(url: h.server.url("/slow"))) { _ in cancelledCalls += 1 }
        token.cancel()
        #expect(h.fetcher.activeCount == 0)
        let fast = h.fetch("/fast")
        #expect(fast?.value?.status == 200)
        #expect(cancelledCalls == 0)
    }
}
