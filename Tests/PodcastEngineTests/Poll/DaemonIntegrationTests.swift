import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// The real daemon on a real libevent loop, fetching with libcurl from the loopback evhttp
/// server, parsing with libxml2 and writing SQLite. XCTest: the loop runs on the test's thread.
final class DaemonIntegrationTests: XCTestCase {
    var server: TestHTTPServer!
    var dir: TemporaryDirectory!
    var store: FeedStore!
    var loop: EventLoop!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        dir = TemporaryDirectory("integration")
        store = try FeedStore(path: dir.file("state.sqlite"))
        loop = try EventLoop()
    }

    override func tearDown() {
        server.stop()
        store = nil
        loop = nil
        dir = nil
    }

    static func rss(_ guids: [String], title: String = "Loopback Show") -> String {
        let items = guids.map {
            "<item><guid>\($0)</guid><title>Episode \($0)</title><pubDate>Mon, 0\(min(9, Int($0.dropFirst()) ?? 1)) Jan 2024 10:00:00 GMT</pubDate><enclosure url=\"/media/\($0).mp3\" length=\"1000\" type=\"audio/mpeg\"/></item>"
        }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>\(title)</title>\(items)</channel></rss>"
    }

    struct Pass {
        var events: [FeedEvent] = []
        var warnings: [String] = []
        var failed: [Int64]?
        var newGuids: [String?] {
            events.compactMap { if case .newEpisode(let e) = $0 { return e.guid } else { return nil } }
        }
        var errors: [FeedErrorReport] {
            events.compactMap { if case .feedError(let e) = $0 { return e } else { return nil } }
        }
    }

    /// One `--once` pass of a fresh daemon over the store, on the loop, with a 20 s watchdog.
    /// `force`: as `run --once --force` (backing-off feeds are polled too).
    func oncePass(limits: FetchLimits = FetchLimits(), force: Bool = false) throws -> Pass {
        let fetcher = HTTPFetcher(eventBase: loop.base)
        var configuration = PodcastDaemon<LoopScheduler>.Configuration(once: true, limits: limits)
        configuration.onceIgnoresBackoff = force
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: LoopScheduler(loop: loop),
            configuration: configuration, random: { 1 << 63 })
        var pass = Pass()
        daemon.onEvent = { pass.events.append($0) }
        daemon.onWarning = { pass.warnings.append($0) }
        daemon.onFinished = { [loop] in
            pass.failed = $0
            loop!.stop()
        }
        let watchdog = loop.scheduleTimer(after: .seconds(20)) { [loop] in loop!.stop() }
        try daemon.start()
        try loop.run()
        watchdog.cancel()
        daemon.stop()
        XCTAssertNotNil(pass.failed, "the pass did not finish")
        return pass
    }

    func testNewEpisodesAppearOnce() throws {
        server.route("/feed", .ok(Self.rss(["g1", "g2"])))
        let feed = try store.add(url: server.url("/feed"))
        var pass = try oncePass()
        XCTAssertEqual(pass.failed, [])
        XCTAssertEqual(pass.newGuids, ["g1", "g2"])
        server.route("/feed", .ok(Self.rss(["g1", "g2", "g3"])))
        pass = try oncePass()
        XCTAssertEqual(pass.newGuids, ["g3"])
        pass = try oncePass()
        XCTAssertEqual(pass.newGuids, [])
        XCTAssertEqual(try store.episodeCount(feedID: feed.id), 3)
        XCTAssertEqual(try store.episodes(feedID: feed.id).first?.enclosure?.url, server.url("/media/g3.mp3"))
        XCTAssertEqual(server.requestCount("/feed"), 3)
    }

    func testNotModifiedWritesNothing() throws {
        server.routeConditional(
            "/feed", body: Self.rss(["g1"]), etag: "\"v1\"", lastModified: "Mon, 01 Jan 2024 10:00:00 GMT")
        let feed = try store.add(url: server.url("/feed"))
        _ = try oncePass()
        let before = try store.database.scalarInt("SELECT total_changes()")!
        let episodesBefore = try store.episodes(feedID: feed.id)
        let pass = try oncePass()
        XCTAssertEqual(pass.events.map(\.kind), ["feed_updated"])
        guard case .feedUpdated(let report) = pass.events.first else { return XCTFail("no update") }
        XCTAssertTrue(report.notModified)
        XCTAssertEqual(server.requests.last?.headers["if-none-match"], "\"v1\"")
        XCTAssertEqual(try store.episodes(feedID: feed.id), episodesBefore)
        XCTAssertEqual(try store.database.scalarInt("SELECT total_changes()")! - before, 1)  // the feed row only
    }

    /// A server that sends `Last-Modified` but no `ETag` (many static hosts): the daemon sends the
    /// date back as `If-Modified-Since` and takes the server's 304 as "unchanged", not as a 304
    /// to an unconditional request (a failure).
    func testLastModifiedOnlyServerAnswers304AndNothingChanges() throws {
        let date = "Tue, 02 Jan 2024 10:00:00 GMT"
        server.route("/feed") { request in
            if request.headers["if-modified-since"] == date {
                return TestHTTPServer.Response(status: 304, headers: [("Last-Modified", date)])
            }
            return .ok(Self.rss(["g1", "g2"]), headers: [("Last-Modified", date)])
        }
        let feed = try store.add(url: server.url("/feed"))
        var pass = try oncePass()
        XCTAssertEqual(pass.newGuids, ["g1", "g2"])
        XCTAssertNil(try store.feed(id: feed.id)?.etag)
        XCTAssertEqual(try store.feed(id: feed.id)?.lastModified, date)
        let episodesBefore = try store.episodes(feedID: feed.id)

        pass = try oncePass()
        XCTAssertEqual(pass.failed, [])
        XCTAssertEqual(pass.events.map(\.kind), ["feed_updated"])
        guard case .feedUpdated(let report) = pass.events.first else { return XCTFail("no update") }
        XCTAssertTrue(report.notModified)
        XCTAssertEqual(server.requests.last?.headers["if-modified-since"], date)
        XCTAssertNil(server.requests.last?.headers["if-none-match"])
        let stored = try XCTUnwrap(try store.feed(id: feed.id))
        XCTAssertEqual(stored.lastHTTPStatus, 304)
        XCTAssertEqual(stored.failureCount, 0)
        XCTAssertEqual(stored.lastModified, date)  // kept for the poll after
        XCTAssertEqual(try store.episodes(feedID: feed.id), episodesBefore)
        XCTAssertEqual(server.requestCount("/feed"), 2)
    }

    func testPermanentRedirectMovesTheURL() throws {
        server.route("/old", .redirect(301, to: server.url("/new")))
        server.route("/new", .ok(Self.rss(["g1"])))
        let feed = try store.add(url: server.url("/old"))
        let pass = try oncePass()
        XCTAssertEqual(
            pass.events.first,
            .feedMoved(
                FeedMoveReport(
                    time: pass.events[0].time, from: server.url("/old"), to: server.url("/new"), reason: "http-301")))
        XCTAssertEqual(try store.feed(id: feed.id)?.url, server.url("/new"))
        _ = try oncePass()
        XCTAssertEqual(server.requestCount("/old"), 1)
        XCTAssertEqual(server.requestCount("/new"), 2)
    }

    func testTruncatedCopyAfterAGoodOneIsAFailedPollThatChangesNothing() throws {
        let full = Self.rss(["g1", "g2", "g3"])
        server.route("/feed", .ok(full, headers: [("ETag", "\"v1\"")]))
        let feed = try store.add(url: server.url("/feed"))
        var pass = try oncePass()
        XCTAssertEqual(pass.newGuids, ["g1", "g2", "g3"])
        XCTAssertEqual(pass.warnings, [])
        let stored = try store.episodes(feedID: feed.id)

        // The same document cut inside the third item's title (a short read, a proxy's error).
        let cut = full.range(of: "Episode g3")!.lowerBound
        server.route("/feed", .ok(String(full[..<full.index(cut, offsetBy: 4)]), headers: [("ETag", "\"v1\"")]))
        // A truncated body is a failed poll: nothing is stored from it.
        pass = try oncePass()
        XCTAssertEqual(pass.failed, [feed.id])
        XCTAssertEqual(pass.newGuids, [])
        XCTAssertEqual(
            pass.errors.map(\.message),
            [
                "truncated: the document ends after \(full.distance(from: full.startIndex, to: full.index(cut, offsetBy: 4))) bytes without </rss>, cut inside item 3"
            ])
        XCTAssertEqual(pass.warnings, [])
        XCTAssertEqual(try store.episodes(feedID: feed.id), stored)  // nothing deleted, duplicated or rewritten
        XCTAssertNil(try store.feed(id: feed.id)?.etag)  // the next poll is unconditional

        // The whole document again (backing off: forced): still nothing new, and the validator comes back.
        server.route("/feed", .ok(full, headers: [("ETag", "\"v1\"")]))
        pass = try oncePass(force: true)
        XCTAssertEqual(pass.newGuids, [])
        XCTAssertEqual(pass.warnings, [])
        XCTAssertNil(server.requests.last?.headers["if-none-match"])
        XCTAssertEqual(try store.episodeCount(feedID: feed.id), 3)
        XCTAssertEqual(try store.feed(id: feed.id)?.etag, "\"v1\"")
    }

    func testGzipIsDecoded() throws {
        server.route("/gz", .gzip(Self.rss(["g1", "g2", "g3"])))
        let feed = try store.add(url: server.url("/gz"))
        let pass = try oncePass()
        XCTAssertEqual(pass.failed, [])
        XCTAssertEqual(pass.newGuids, ["g1", "g2", "g3"])
        XCTAssertEqual(try store.episodeCount(feedID: feed.id), 3)
    }

    /// A server that never answers within the test and the smallest total timeout (1 ms): the
    /// poll fails as a timeout and backs off, whichever stage libcurl was at.
    func testSlowServerHitsTheTimeout() throws {
        var slow = TestHTTPServer.Response.ok(Self.rss(["g1"]))
        slow.delay = 30  // the server stops at the test's end, long before
        server.route("/slow", slow)
        let feed = try store.add(url: server.url("/slow"))
        let pass = try oncePass(limits: FetchLimits(connectTimeout: 1, totalTimeout: 0))
        XCTAssertEqual(pass.failed, [feed.id])
        XCTAssertEqual(pass.errors.count, 1)
        XCTAssertEqual(pass.errors.first?.health, .backingOff)
        XCTAssertTrue(pass.errors.first?.message.hasPrefix("timed out") ?? false, "\(pass.errors)")
        XCTAssertEqual(try store.episodeCount(feedID: feed.id), 0)
        XCTAssertEqual(try store.feed(id: feed.id)?.failureCount, 1)
    }

    func testOversizeBodyIsRefused() throws {
        server.route("/big", .ok(Self.rss((1...200).map { "g\($0)" })))
        let feed = try store.add(url: server.url("/big"))
        let pass = try oncePass(limits: FetchLimits(maxResponseBytes: 2_000))
        XCTAssertEqual(pass.failed, [feed.id])
        XCTAssertEqual(pass.newGuids, [])
        XCTAssertEqual(try store.episodeCount(feedID: feed.id), 0)
    }

    func testServerErrorBacksOff() throws {
        server.route("/err", .status(500, "boom"))
        let feed = try store.add(url: server.url("/err"))
        var pass = try oncePass()
        XCTAssertEqual(pass.failed, [feed.id])
        XCTAssertEqual(pass.errors.map(\.httpStatus), [500])
        XCTAssertEqual(pass.errors.map(\.health), [.backingOff])
        var record = try XCTUnwrap(try store.feed(id: feed.id))
        XCTAssertEqual(record.nextPoll!.timeIntervalSince(record.lastCheck!), 300, accuracy: 1)
        // A plain --once (cron) keeps to the backoff: no request, no failure reported.
        pass = try oncePass()
        XCTAssertEqual(pass.failed, [])
        XCTAssertEqual(server.requestCount("/err"), 1)
        XCTAssertEqual(try store.feed(id: feed.id)?.failureCount, 1)
        pass = try oncePass(force: true)
        XCTAssertEqual(server.requestCount("/err"), 2)
        record = try XCTUnwrap(try store.feed(id: feed.id))
        XCTAssertEqual(record.failureCount, 2)
        XCTAssertEqual(record.nextPoll!.timeIntervalSince(record.lastCheck!), 600, accuracy: 1)
    }

    func testRetryAfterOnA503SetsTheNextPoll() throws {
        var busy = TestHTTPServer.Response.status(503, "busy")
        busy.headers.append(("Retry-After", "5400"))
        server.route("/busy", busy)
        let feed = try store.add(url: server.url("/busy"))
        let pass = try oncePass()
        XCTAssertEqual(pass.failed, [feed.id])
        XCTAssertEqual(pass.errors.map(\.httpStatus), [503])
        let record = try XCTUnwrap(try store.feed(id: feed.id))
        XCTAssertEqual(record.nextPoll!.timeIntervalSince(record.lastCheck!), 5400, accuracy: 0.001)
    }

    func testRedirectLoopIsCutOff() throws {
        server.route("/a", .redirect(302, to: server.url("/b")))
        server.route("/b", .redirect(302, to: server.url("/a")))
        let feed = try store.add(url: server.url("/a"))
        let pass = try oncePass()
        XCTAssertEqual(pass.failed, [feed.id])
        XCTAssertEqual(pass.errors.count, 1)
        XCTAssertLessThanOrEqual(server.requestCount("/a") + server.requestCount("/b"), 6)
    }

    func testGoneDisablesAndNotFoundFails() throws {
        server.route("/gone", .status(410))
        server.route("/missing", .status(404))
        let gone = try store.add(url: server.url("/gone"))
        let missing = try store.add(url: server.url("/missing"))
        let pass = try oncePass()
        XCTAssertEqual(pass.failed, [gone.id, missing.id])
        XCTAssertEqual(try store.feed(id: gone.id)?.enabled, false)
        XCTAssertEqual(try store.feed(id: missing.id)?.enabled, true)
        // Completion order is the server's; compare per status.
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: pass.errors.map { ($0.httpStatus!, $0.health) }),
            [410: .disabled, 404: .failing])
        _ = try oncePass(force: true)
        XCTAssertEqual(server.requestCount("/gone"), 1)  // never polled again, even forced
        XCTAssertEqual(server.requestCount("/missing"), 2)
    }

    func testNewFeedURLMovesUnlessAlreadySubscribed() throws {
        let announce = { (target: String) in
            "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>Moving</title><itunes:new-feed-url>\(target)</itunes:new-feed-url><item><guid>m1</guid></item></channel></rss>"
        }
        server.route("/moving", .ok(announce(server.url("/moved"))))
        server.route("/moved", .ok(Self.rss(["m1"])))
        server.route("/stuck", .ok(announce(server.url("/taken"))))
        server.route("/taken", .ok(Self.rss(["t1"])))
        let moving = try store.add(url: server.url("/moving"))
        let stuck = try store.add(url: server.url("/stuck"))
        _ = try store.add(url: server.url("/taken"))
        let pass = try oncePass()
        let moves = pass.events.compactMap { if case .feedMoved(let m) = $0 { return m } else { return nil } }
        XCTAssertEqual(moves.map(\.from), [server.url("/moving")])
        XCTAssertEqual(moves.map(\.to), [server.url("/moved")])
        XCTAssertEqual(moves.map(\.reason), ["itunes:new-feed-url"])
        XCTAssertEqual(try store.feed(id: moving.id)?.url, server.url("/moved"))
        XCTAssertEqual(try store.feed(id: stuck.id)?.url, server.url("/stuck"))  // target already subscribed
        XCTAssertEqual(try store.feeds().count, 3)
    }
}
