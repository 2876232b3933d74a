import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// A 304 on the very first poll (no validators were sent), or a first body cut
/// short, counted as the first sync, so the next 200 announced all 50 items (and ran the hook
/// 50 times) instead of 3. Both are failed polls now.
@Suite(.serialized) struct FirstSyncTests {
    let dir = TemporaryDirectory("firstsync")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    static func rss(_ count: Int) -> String {
        let items = (1...count).map {
            "<item><guid>g\($0)</guid><title>E\($0)</title><pubDate>\(String(format: "%02d", $0 % 28 + 1)) Jan 20\(String(format: "%02d", 10 + $0 / 28)) 10:00:00 GMT</pubDate></item>"
        }
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Fifty</title>" + items.joined()
            + "</channel></rss>"
    }

    func body(_ url: String, _ text: String) -> FetchResult {
        .success(FetchResponse(status: 200, body: Data(text.utf8), requestedURL: url, effectiveURL: url))
    }

    func run(first: FetchResult) throws -> (firstEvents: [FeedEvent], secondNew: Int) {
        let feed = try store.add(url: "http://h/f")
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: scheduler, random: noJitter)
        var events: [FeedEvent] = []
        daemon.onEvent = { events.append($0) }
        try daemon.start()
        fetcher.respond("http://h/f", first)
        let firstEvents = events
        events = []
        daemon.pollAllNow()
        fetcher.respond("http://h/f", body("http://h/f", Self.rss(50)))
        #expect(try store.episodeCount(feedID: feed.id) == 50)
        daemon.stop()
        return (firstEvents, events.filter { $0.kind == "new_episode" }.count)
    }

    @Test func notModifiedWithoutValidatorsIsAnErrorAndKeepsTheFirstSyncLimit() throws {
        let (first, announced) = try run(first: notModified("http://h/f"))
        guard case .feedError(let error) = try #require(first.first) else {
            Issue.record("expected feed_error, got \(first.map(\.kind))")
            return
        }
        #expect(error.message == "HTTP 304 Not Modified to a request without validators")
        #expect(error.httpStatus == 304)
        #expect(announced == 3)
    }

    @Test func truncatedFirstBodyIsAFailedPollAndKeepsTheFirstSyncLimit() throws {
        let full = Self.rss(50)
        let cut = String(full.prefix(full.count / 2))
        let (first, announced) = try run(first: body("http://h/f", cut))
        guard case .feedError(let error) = try #require(first.first) else {
            Issue.record("expected feed_error, got \(first.map(\.kind))")
            return
        }
        // The cut falls inside the item it started last: the message names it.
        let item = cut.components(separatedBy: "<item>").count - 1
        #expect(item == 25)
        #expect(
            error.message
                == "truncated: the document ends after \(cut.utf8.count) bytes without </rss>, cut inside item 25")
        #expect(announced == 3)
    }

    @Test func aBodyMissingOnlyItsFinalBracketIsReadWithAWarning() throws {
        let response = FetchResponse(
            status: 200, body: Data(String(Self.rss(50).dropLast()).utf8), requestedURL: "http://h/f",
            effectiveURL: "http://h/f")
        let parsed = try FeedParsing.parse(response)
        #expect(parsed.episodes.count == 50)
        #expect(parsed.ending == .afterItems(count: 50, channelClosed: true))
        #expect(
            parsed.warnings.last
                == "the document ends without a complete </rss>, but every item closed: read as complete")
    }

    @Test func aBodyCutBetweenItemsIsStillRefused() throws {
        let full = Self.rss(3)
        let cut = String(full[..<full.range(of: "<item><guid>g3")!.lowerBound])
        let response = FetchResponse(
            status: 200, body: Data(cut.utf8), requestedURL: "http://h/f", effectiveURL: "http://h/f")
        #expect(
            throws: TruncatedDocument(
                byteCount: cut.utf8.count, rootElement: "rss", ending: .afterItems(count: 2, channelClosed: false))
        ) { try FeedParsing.parse(response) }
    }

    @Test func unclosedRootDetection() {
        #expect(
            TruncatedDocument.unclosedRoot(
                Array(
                    "<?xml version='1.0'?><!DOCTYPE rss [<!ENTITY a 'b'>]><!-- c --><rss><channel></channel></rss>\n<!-- end -->\n"
                        .utf8)) == nil)
        #expect(TruncatedDocument.unclosedRoot(Array("<rdf:RDF a='1'><item/></rdf:RDF >".utf8)) == nil)
        #expect(TruncatedDocument.unclosedRoot(Array("<rss version=\"2.0\"/>".utf8)) == nil)
        #expect(TruncatedDocument.unclosedRoot(Array("<rss><channel><item></item>".utf8)) == "rss")
        #expect(TruncatedDocument.unclosedRoot(Array("<feed><entry></entry></feed".utf8)) == "feed")
        #expect(TruncatedDocument.unclosedRoot(Array("<rss><channel></channel></rs>".utf8)) == "rss")
        let utf16 = Array("<rss><channel>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(TruncatedDocument.unclosedRoot([0xFF, 0xFE] + utf16) == "rss")
        #expect(TruncatedDocument.unclosedRoot(Array("not xml at all".utf8)) == nil)
    }

    @Test func fetcherRefusesA304ToAnUnconditionalRequest() throws {
        let h = try FetchHarness()
        h.server.route("/nm", .status(304))
        let error = try #require(h.fetch("/nm")?.error)
        #expect(error.kind == .httpStatus(304))
        #expect(error.message == "HTTP 304 Not Modified to a request without validators")
        // With a validator it is the normal answer.
        let response = try #require(h.fetch(FetchRequest(url: h.server.url("/nm"), etag: "\"v1\""))?.value)
        #expect(response.status == 304)
    }

    /// Conflicting `Content-Length` headers were accepted.
    @Test func conflictingContentLengthsAreRefused() throws {
        let h = try FetchHarness()
        let body = "<rss version=\"2.0\"><channel><title>x</title></channel></rss>"
        h.server.route("/cl", .ok(body, headers: [("Content-Length", "\(body.utf8.count)"), ("Content-Length", "5")]))
        let error = try #require(h.fetch("/cl")?.error)
        #expect(error.message == "conflicting Content-Length headers (\(body.utf8.count), 5)")
        h.server.route(
            "/same",
            .ok(body, headers: [("Content-Length", "\(body.utf8.count)"), ("Content-Length", "\(body.utf8.count)")]))
        #expect(h.fetch("/same")?.value?.status == 200)
    }
}
