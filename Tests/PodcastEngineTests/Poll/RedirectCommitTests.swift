import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastEngine
@testable import PodcastStore

/// A 301 was committed even when the fetch failed: a 301 loop moved the
/// subscription on every poll (4 polls, 4 moves), a 30-hop chain advanced 5 hops per poll. A
/// move is committed only when the poll at the new URL succeeded.
final class RedirectCommitTests: XCTestCase {
    var server: TestHTTPServer!
    var dir: TemporaryDirectory!
    var store: FeedStore!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        dir = TemporaryDirectory("redirects")
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    override func tearDown() {
        server.stop()
        store = nil
        dir = nil
    }

    /// `count` forced `--once` passes; the events of each.
    func passes(_ count: Int) throws -> [[FeedEvent]] {
        try (0..<count).map { _ in
            let loop = try EventLoop()
            var configuration = PodcastDaemon<LoopScheduler>.Configuration(once: true)
            configuration.onceIgnoresBackoff = true
            let daemon = PodcastDaemon(
                store: store, fetcher: HTTPFetcher(loop: loop), parse: FeedParsing.parse,
                scheduler: LoopScheduler(loop: loop),
                configuration: configuration, random: noJitter)
            var events: [FeedEvent] = []
            daemon.onEvent = { events.append($0) }
            daemon.onFinished = { _ in loop.stop() }
            let watchdog = loop.scheduleTimer(after: .seconds(20)) { loop.stop() }
            try daemon.start()
            try loop.run()
            watchdog.cancel()
            daemon.stop()
            return events
        }
    }

    func testARedirectLoopMovesNothing() throws {
        server.route("/a", .redirect(301, to: server.url("/b")))
        server.route("/b", .redirect(301, to: server.url("/a")))
        let feed = try store.add(url: server.url("/a"))
        let events = try passes(4)
        XCTAssertEqual(events.map { $0.map(\.kind) }, Array(repeating: ["feed_error"], count: 4))
        XCTAssertEqual(try store.feed(id: feed.id)?.url, server.url("/a"))
    }

    func testAChainPastTheLimitMovesNothing() throws {
        for hop in 0..<30 { server.route("/h\(hop)", .redirect(301, to: server.url("/h\(hop + 1)"))) }
        server.route("/h30", .ok(TestFeeds.rss(["g1"])))
        let feed = try store.add(url: server.url("/h0"))
        let events = try passes(3)
        XCTAssertEqual(events.map { $0.map(\.kind) }, Array(repeating: ["feed_error"], count: 3))
        XCTAssertEqual(try store.feed(id: feed.id)?.url, server.url("/h0"))
    }

    func testAMoveToAFailingTargetIsNotCommittedUntilItAnswers() throws {
        server.route("/old", .redirect(301, to: server.url("/new")))
        server.route("/new", .status(500))
        let feed = try store.add(url: server.url("/old"))
        XCTAssertEqual(try passes(1).first?.map(\.kind), ["feed_error"])
        XCTAssertEqual(try store.feed(id: feed.id)?.url, server.url("/old"))
        server.route("/new", .ok(TestFeeds.rss(["g1"])))
        let events = try passes(1)[0]
        XCTAssertEqual(
            events.first,
            .feedMoved(
                FeedMoveReport(
                    time: events[0].time, from: server.url("/old"), to: server.url("/new"), reason: "http-301")))
        XCTAssertEqual(try store.feed(id: feed.id)?.url, server.url("/new"))
    }
}
