import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing
import XCTest

@testable import PodcastEngine
@testable import PodcastStore

/// 8 feeds that never answer held all 8 fetch slots, so healthy feeds waited for
/// the 60 s timeout. A per-host limit and a larger global pool keep a few dead hosts from
/// delaying the rest.
@Suite struct HeadOfLineTests {
    let dir = TemporaryDirectory("hol")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    @Test func eightHungHostsDoNotDelayTwentyHealthyFeeds() throws {
        for i in 0..<8 { try store.add(url: "http://dead\(i).example/feed") }
        for i in 0..<20 { try store.add(url: "http://ok.example/f\(i)") }
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, random: noJitter)
        var updated: [String] = []
        daemon.onEvent = { if case .feedUpdated(let r) = $0 { updated.append(r.feedURL) } }
        try daemon.start()
        // No time passes: the healthy host is polled 4 at a time while the dead ones hang.
        while let next = fetcher.pendingURLs.first(where: { $0.hasPrefix("http://ok.example/") }) {
            #expect(fetcher.pendingURLs.filter { $0.hasPrefix("http://ok.example/") }.count <= 4)
            fetcher.respond(next, ok(next, "g1"))
        }
        #expect(updated.count == 20)
        #expect(Set(updated) == Set((0..<20).map { "http://ok.example/f\($0)" }))
        #expect(fetcher.pendingURLs.sorted() == (0..<8).map { "http://dead\($0).example/feed" })
        daemon.stop()
    }

    @Test func oneDeadHostHoldsOnlyItsOwnSlots() throws {
        for i in 0..<8 { try store.add(url: "http://dead.example/f\(i)") }
        try store.add(url: "http://ok.example/f")
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, random: noJitter)
        try daemon.start()
        #expect(fetcher.pendingURLs == (0..<4).map { "http://dead.example/f\($0)" } + ["http://ok.example/f"])
        #expect(daemon.library.podcast(id: 5)?.status == .waiting)
        // One dead fetch times out: the next feed of that host starts, in order.
        fetcher.respond(
            "http://dead.example/f0",
            .failure(FetchError(kind: .timeout, url: "http://dead.example/f0", message: "timed out")))
        #expect(
            fetcher.pendingURLs.filter { $0.hasPrefix("http://dead.example/") }
                == (1..<5).map { "http://dead.example/f\($0)" })
        daemon.stop()
    }

    @Test func hostKeysAreHostAndPort() {
        #expect(PodcastDaemon<ManualScheduler>.hostKey("https://Feeds.Example.COM/a?b") == "feeds.example.com")
        #expect(PodcastDaemon<ManualScheduler>.hostKey("http://user:pw@127.0.0.1:8080/x") == "127.0.0.1:8080")
        #expect(PodcastDaemon<ManualScheduler>.hostKey("/tmp/feed.xml") == nil)
        #expect(PodcastDaemon<ManualScheduler>.hostKey("file:///tmp/feed.xml") == nil)
    }
}

/// The same over real sockets: a host that accepts connections and never answers.
final class HeadOfLineSocketTests: XCTestCase {
    func testHealthyFeedsArePolledWhileDeadOnesHang() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let dir = TemporaryDirectory("hol-socket")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        // A listening socket nobody accepts on: the kernel completes the handshake, no reply comes.
        let dead = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(dead) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(dead, $0, length) == 0 && listen(dead, 64) == 0 && getsockname(dead, $0, &length) == 0
            }
        }
        XCTAssertTrue(bound)
        let deadPort = Int(UInt16(bigEndian: address.sin_port))
        for i in 0..<8 { try store.add(url: "http://127.0.0.1:\(deadPort)/hung\(i)") }
        for i in 0..<20 {
            server.route("/f\(i)", .ok(TestFeeds.rss(["f\(i)"])))
            try store.add(url: server.url("/f\(i)"))
        }
        let loop = try EventLoop()
        var configuration = PodcastDaemon<LoopScheduler>.Configuration(limits: FetchLimits(totalTimeout: 10))
        configuration.parseBudget = 10
        let daemon = PodcastDaemon(
            store: store, fetcher: HTTPFetcher(loop: loop), parse: FeedParsing.parse,
            scheduler: LoopScheduler(loop: loop),
            configuration: configuration, random: noJitter)
        var healthy = 0
        var errors = 0
        daemon.onEvent = {
            switch $0 {
            case .feedUpdated: healthy += 1
            case .feedError: errors += 1
            default: break
            }
            if healthy == 20 { loop.stop() }
        }
        let watchdog = loop.scheduleTimer(after: .seconds(20)) { loop.stop() }
        try daemon.start()
        try loop.run()
        watchdog.cancel()
        daemon.stop()
        XCTAssertEqual(healthy, 20)
        // Order, not time: the loop stopped at the twentieth healthy update, and no dead fetch
        // had reached its 10 s timeout by then (a healthy feed queued behind the dead ones
        // would have waited for them, so their errors would come first).
        XCTAssertEqual(errors, 0, "every healthy feed was polled before a dead one timed out")
    }
}
