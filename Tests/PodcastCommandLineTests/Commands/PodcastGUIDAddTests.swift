import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastFeeds
@testable import PodcastStore

/// `add` reads the fetched feed's `podcast:guid`: the same show under a second URL is refused
/// (status 1, naming the subscription, nothing stored), and `add NEW --replace` moves the one
/// subscription with that guid to NEW, keeping its id, episodes and downloads. Against a
/// loopback server, in process.
@Suite struct PodcastGUIDAddTests {
    let state = temporaryDirectory()
    let server: TestHTTPServer
    static let guid = "917393e3-1b1e-5cef-ace4-edaa54e1f810"

    init() throws {
        server = try TestHTTPServer()
    }

    func run(_ args: String...) -> (ExitCode, String, String) { runCommand(state: state, args) }

    static func feed(guid: String?, items: [String] = ["g1"]) -> String {
        let tag = guid.map { "<podcast:guid>\($0)</podcast:guid>" } ?? ""
        let entries = items.map { "<item><guid>\($0)</guid><title>Episode \($0)</title></item>" }.joined()
        return
            "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel><title>Tidepool Radio</title>\(tag)\(entries)</channel></rss>"
    }

    /// One `run --once` pass of the built binary (the daemon wants the main thread, which a
    /// test does not have); its exit status.
    func poll(_ extra: String...) throws -> Int32 {
        let result = try BinaryRun.run(["--state", state, "run", "--once"] + extra)
        if result.status != 0 { Issue.record("run --once: \(result.status) \(result.stderr)") }
        return result.status
    }

    func store() throws -> FeedStore { try FeedStore(path: state + "/" + StateLocation.databaseName) }

    /// Every feed row, in id order.
    func feeds() throws -> [FeedRecord] { try store().feeds() }

    @Test func theSameShowUnderAnotherURLIsRefusedAndNothingIsStored() throws {
        defer { server.stop() }
        server.route("/old.xml", .ok(Self.feed(guid: Self.guid)))
        server.route("/new.xml", .ok(Self.feed(guid: Self.guid)))
        let old = server.url("/old.xml")
        let new = server.url("/new.xml")
        // Caught right after the first add: add stores the guid it read, before any poll.
        #expect(run("add", old).0 == .success)
        let before = try feeds()
        #expect(before.map(\.url) == [old])
        #expect(
            run("add", new) == (
                .feedFailed, "",
                "podcast-watch: not subscribed: \(new) is the same show as feed #1 \(old) (podcast:guid \(Self.guid)); if the show moved, 'add URL --replace' moves feed #1 to URL, keeping its history\n"
            ))
        #expect(try feeds() == before)
        #expect(try store().database.scalarInt("SELECT count(*) FROM feeds") == 1)
        #expect(server.requestCount("/new.xml") == 1)
    }

    @Test func aGUIDDifferingInCaseAndWhiteSpaceIsTheSameShow() throws {
        defer { server.stop() }
        server.route("/old.xml", .ok(Self.feed(guid: "  917393E3-1B1E-5CEF-ACE4-EDAA54E1F810\n ")))
        server.route("/new.xml", .ok(Self.feed(guid: Self.guid)))
        server.route("/other.xml", .ok(Self.feed(guid: "another-show")))
        let old = server.url("/old.xml")
        let new = server.url("/new.xml")
        #expect(run("add", old).0 == .success)
        #expect(run("add", server.url("/other.xml")).0 == .success)
        let refused = run("add", new)
        #expect(refused.0 == .feedFailed)
        #expect(
            refused.2.hasPrefix("podcast-watch: not subscribed: \(new) is the same show as feed #1 \(old) "),
            "\(refused.2)")
        #expect(try feeds().map(\.url) == [old, server.url("/other.xml")])
        #expect(
            run("add", new, "--replace") == (
                .success,
                "Moved feed #1 from \(old) to \(new), keeping its episodes and history (the same podcast:guid)\n", ""
            ))
        #expect(try feeds().map(\.url) == [new, server.url("/other.xml")])
    }

    @Test func replaceMovesTheSubscriptionWithItsHistory() throws {
        defer { server.stop() }
        server.routeConditional(
            "/old.xml", body: Self.feed(guid: Self.guid, items: ["g1", "g2"]), etag: "\"v1\"",
            lastModified: "Sat, 05 Dec 2026 10:00:00 GMT")
        server.route("/new.xml", .ok(Self.feed(guid: Self.guid, items: ["g1", "g2"])))
        server.route("/other.xml", .ok(Self.feed(guid: nil)))
        server.route("/g1.mp3", .ok("audio", contentType: "audio/mpeg"))
        let old = server.url("/old.xml")
        let new = server.url("/new.xml")
        #expect(run("add", old).0 == .success)
        #expect(run("add", server.url("/other.xml")).0 == .success)
        #expect(try poll() == 0)
        let store = try store()
        let before = try #require(try store.feed(id: 1))
        #expect(before.etag == "\"v1\"")
        #expect(before.lastModified == "Sat, 05 Dec 2026 10:00:00 GMT")
        let episodes = try store.episodes(feedID: 1)
        #expect(episodes.map(\.guid) == ["g1", "g2"])
        let ledger = DownloadLedger(store: store)
        try ledger.enqueue(
            episodeID: episodes[0].id, feedID: 1, url: server.url("/g1.mp3"), total: nil,
            queued: Date(timeIntervalSince1970: 1_700_000_000), candidate: { "\(state)/g1-\($0).mp3" })
        let downloads = try ledger.all(feedID: 1)
        let others = try store.feed(id: 2)

        #expect(
            run("add", new, "--replace") == (
                .success,
                "Moved feed #1 from \(old) to \(new), keeping its episodes and history (the same podcast:guid)\n", ""
            ))
        var expected = before
        expected.url = new
        expected.etag = nil
        expected.lastModified = nil
        #expect(try store.feed(id: 1) == expected)
        #expect(try store.feed(id: 2) == others)
        #expect(try store.feeds().count == 2)
        #expect(try store.episodes(feedID: 1) == episodes)
        #expect(downloads.map(\.feedURL) == [old])
        #expect(
            try ledger.all(feedID: 1)
                == downloads.map {
                    var d = $0
                    d.feedURL = new
                    return d
                })
        let history = try store.urlHistory(feedID: 1)
        #expect(history.map { [$0.from, $0.to, $0.reason.rawValue] } == [[old, new, "podcast:guid"]])
        // The new URL is fetched without the old URL's validators; nothing new to announce.
        #expect(server.requestCount("/new.xml") == 1)
        #expect(try poll("--force") == 0)
        #expect(server.requestCount("/new.xml") == 2)
        #expect(server.requestCount("/old.xml") == 2)  // the add and the first poll
        #expect(server.requests.filter { $0.uri == "/new.xml" }.map { $0.headers["if-none-match"] } == [nil, nil])
        #expect(try store.episodes(feedID: 1).map(\.id) == episodes.map(\.id))
    }

    @Test func replaceWithoutAMatchIsRefusedAndChangesNothing() throws {
        defer { server.stop() }
        server.route("/old.xml", .ok(Self.feed(guid: Self.guid)))
        server.route("/stranger.xml", .ok(Self.feed(guid: "another-show")))
        server.route("/plain.xml", .ok(Self.feed(guid: nil)))
        let old = server.url("/old.xml")
        let stranger = server.url("/stranger.xml")
        let plain = server.url("/plain.xml")
        #expect(run("add", old).0 == .success)
        let before = try feeds()
        #expect(
            run("add", stranger, "--replace") == (
                .feedFailed, "",
                "podcast-watch: not moved: no subscription has the podcast:guid another-show of \(stranger) ('add' without --replace subscribes to it)\n"
            ))
        #expect(
            run("add", plain, "--replace") == (
                .feedFailed, "",
                "podcast-watch: not moved: \(plain) has no podcast:guid to find its subscription by ('add' without --replace subscribes to it)\n"
            ))
        // The subscription's own URL is already subscribed: nothing to move.
        #expect(
            run("add", old, "--replace") == (.feedFailed, "", "podcast-watch: \(old) is already subscribed (feed #1)\n")
        )
        #expect(try feeds() == before)
        #expect(try store().urlHistory(feedID: 1) == [])
    }

    @Test func replaceRefusesWhenSeveralSubscriptionsHaveTheGUID() throws {
        defer { server.stop() }
        // Two subscriptions of one show: --no-check stores no guid, the first poll does.
        server.route("/a.xml", .ok(Self.feed(guid: Self.guid)))
        server.route("/b.xml", .ok(Self.feed(guid: Self.guid)))
        server.route("/c.xml", .ok(Self.feed(guid: Self.guid)))
        let a = server.url("/a.xml")
        let b = server.url("/b.xml")
        #expect(run("add", a, "--no-check").0 == .success)
        #expect(run("add", b, "--no-check").0 == .success)
        #expect(try poll() == 0)
        let before = try feeds()
        #expect(
            run("add", server.url("/c.xml"), "--replace") == (
                .feedFailed, "",
                "podcast-watch: not moved: 2 subscriptions have the podcast:guid \(Self.guid) of \(server.url("/c.xml")) (feed #1 \(a), feed #2 \(b)); remove all but one first\n"
            ))
        #expect(try feeds() == before)
    }

    @Test func hostileGUIDTextIsNeutralisedAndCut() throws {
        defer { server.stop() }
        // A bidi override (XML cannot carry an escape) and more than the 80 characters shown.
        let hostile = "show\u{202E}" + String(repeating: "x", count: 200)
        server.route("/evil.xml", .ok(Self.feed(guid: hostile)))
        let (code, out, err) = run("add", server.url("/evil.xml"), "--replace")
        #expect(code == .feedFailed)
        #expect(out == "")
        #expect(err.contains("podcast:guid show\u{FFFD}" + String(repeating: "x", count: 75) + "… of"), "\(err)")
        #expect(!err.unicodeScalars.contains { TerminalText.isUnsafe($0) && $0 != "\n" })
    }

    @Test func replaceTakesNoOtherOption() {
        defer { server.stop() }
        let url = server.url("/new.xml")
        for extra in [["--no-check"], ["--title", "T"], ["--download"], ["--keep", "2"], ["--interval", "60"]] {
            let (code, out, err) = runCommand(state: state, ["add", url, "--replace"] + extra)
            #expect(code == .usage)
            #expect(out == "")
            #expect(
                err.contains(
                    "options '--replace' and '\(extra[0])' exclude each other: a moved subscription keeps its settings (change them with 'set')"
                ), "\(err)")
        }
        #expect(server.requests.isEmpty)
    }
}
