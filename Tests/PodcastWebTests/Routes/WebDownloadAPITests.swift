import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastEngine
import PodcastFeeds
import PodcastTestSupport
import XCTest

@testable import PodcastStore
@testable import PodcastWeb

/// Download control through the JSON API, on a real queue downloading from a loopback server:
/// retry, one named episode, the back catalogue, delete and cancel, each with the store's exact
/// state afterwards; `/api/downloads` and `/metrics` say what the queue does.
final class WebDownloadAPITests: XCTestCase {
    final class World {
        let h: DownloadHarness
        let library = LibraryViewModel()
        let metrics = WebMetrics()
        let router: WebRouter

        init(configure: (inout DownloadSettings) -> Void = { _ in }) throws {
            h = try DownloadHarness(configure: configure)
            library.upsert(Podcast(id: h.feedID, url: "http://feeds.example/podcast.xml", title: "Loopback Radio"))
            let data = WebLibraryData(library: library, store: h.store)
            let downloads = WebDownloads(store: h.store, folders: [h.directory], queue: h.queue)
            let queue = h.queue!
            metrics.downloads = { WebMetrics.DownloadFigures(queue) }
            router = WebRouter(
                data: data, control: NoControl(), access: WebAccess(token: nil, csrfSecret: "s"), metrics: metrics,
                hub: nil, downloads: downloads)
        }

        /// The answer to `method target` from loopback (a JSON POST); a deferred one is waited
        /// for on the loop.
        func send(_ method: String, _ target: String) -> HTTPResponse {
            let request = HTTPRequest(
                method: method, target: target,
                headers: ["Host": "127.0.0.1:8080", "Content-Type": "application/json"])
            switch router.reply(request) {
            case .response(let response): return response
            case .deferred(let start):
                var answer: HTTPResponse?
                start { answer = $0 }
                h.run(until: { answer != nil })
                return answer ?? .jsonError(599, "no answer")
            case .stream: return .jsonError(599, "a stream")
            }
        }

        /// An episode stored but never announced (older than the first sync announced).
        func storeEpisode(_ title: String, path: String, published: Double) throws -> Int64 {
            try h.store.database.run(
                """
                INSERT INTO episodes (feed_id, identity, title, published, first_seen, enclosure_url, enclosure_type)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'audio/mpeg')
                """, .integer(h.feedID), .text("old:\(title)"), .text(title), .real(published), .real(published),
                .text(h.server.url(path)))
            return h.store.database.lastInsertRowID
        }
    }

    func testRetryQueuesAGivenUpDownloadAgainAndItCompletes() throws {
        let w = try World { $0.maxAttempts = 1 }
        let data = DownloadHarness.bytes(20_000, seed: 9)
        let broken = Shared(true)
        w.h.server.route("/r.mp3") { broken.value ? .status(500) : .file(data, for: $0) }
        try w.h.queue.start()
        let id = try w.h.announce(title: "Retry", path: "/r.mp3")
        w.h.run(until: { w.h.isSettled(id) })
        var record = try XCTUnwrap(w.h.record(id))
        XCTAssertEqual(record.state, .failed)
        XCTAssertEqual(record.attempts, 1)
        XCTAssertNil(record.nextRetry)  // given up
        XCTAssertEqual(w.h.queue.model.failedCount, 1)
        let listed = w.send("GET", "/api/downloads").json
        let failed = try XCTUnwrap(listed["failed"] as? [[String: Any]])
        XCTAssertEqual(failed.map { $0["episode_id"] as? Int }, [Int(id)])
        XCTAssertEqual(failed.first?["attempts"] as? Int, 1)
        XCTAssertEqual(failed.first?["error"] as? String, record.error)

        broken.value = false
        let answer = w.send("POST", "/api/episodes/\(id)/download")
        XCTAssertEqual(answer.status, 202)
        XCTAssertEqual(answer.text, #"{"episode_id":\#(id),"result":"requeued"}"# + "\n")
        XCTAssertEqual(w.h.queue.model.failedCount, 0)
        w.h.run(until: { w.h.isSettled(id) })
        record = try XCTUnwrap(w.h.record(id))
        XCTAssertEqual(record.state, .done)
        XCTAssertEqual(record.attempts, 0)
        XCTAssertNil(record.error)
        XCTAssertEqual(record.bytes, 20_000)
        XCTAssertEqual(w.h.contents(record.path), data)
        XCTAssertEqual(
            w.send("POST", "/api/episodes/\(id)/download").text,
            #"{"episode_id":\#(id),"result":"already_done"}"# + "\n")
    }

    func testOneOlderEpisodeAndTheBackCatalogueAreQueuedWithinTheConcurrencyLimit() throws {
        let w = try World { $0.maxConcurrent = 1 }
        let bodies = (0..<4).map { DownloadHarness.bytes(30_000 + $0, seed: UInt8($0 + 1)) }
        for (i, body) in bodies.enumerated() { w.h.server.route("/old\(i).mp3") { .file(body, for: $0) } }
        let ids = try (0..<4).map {
            try w.storeEpisode("Old \($0)", path: "/old\($0).mp3", published: 1_600_000_000 + Double($0) * 86_400)
        }
        try w.h.queue.start()
        XCTAssertNil(w.h.record(ids[0]))  // never announced: never queued

        XCTAssertEqual(
            w.send("POST", "/api/episodes/\(ids[0])/download").text,
            #"{"episode_id":\#(ids[0]),"result":"queued"}"# + "\n")
        XCTAssertEqual(w.h.record(ids[0])?.path, w.h.directory + "/Loopback Radio/2020-09-13 Old 0.mp3")
        let all = w.send("POST", "/api/feeds/\(w.h.feedID)/download-all")
        XCTAssertEqual(all.status, 202)
        XCTAssertEqual(all.text, #"{"feed_id":\#(w.h.feedID),"queued":3}"# + "\n")
        XCTAssertEqual(w.h.queue.activeCount, 1)  // the limit holds: one in flight, three waiting
        XCTAssertEqual(w.h.queue.waitingCount, 3)
        let listed = w.send("GET", "/api/downloads").json
        XCTAssertEqual((listed["counts"] as? [String: Int])?["queued"], 3)
        XCTAssertEqual((listed["counts"] as? [String: Int])?["active"], 1)
        XCTAssertTrue(w.send("GET", "/metrics").text.contains("podcast_watch_download_queue_length 3\n"))
        w.h.run(until: { ids.allSatisfy { w.h.state($0) == .done } && w.h.queue.activeCount == 0 })
        for (id, body) in zip(ids, bodies) {
            let record = try XCTUnwrap(w.h.record(id))
            XCTAssertEqual(record.state, .done)
            XCTAssertEqual(w.h.contents(record.path), body)
        }
        XCTAssertEqual(
            w.send("POST", "/api/feeds/\(w.h.feedID)/download-all").text,
            #"{"feed_id":\#(w.h.feedID),"queued":0}"# + "\n")
        let metrics = w.send("GET", "/metrics").text
        XCTAssertTrue(metrics.contains("podcast_watch_downloads_completed_total 4\n"), metrics)
        XCTAssertTrue(metrics.contains("podcast_watch_downloads_active 0\n"), metrics)
        XCTAssertEqual(w.send("POST", "/api/episodes/999/download").status, 404)
        XCTAssertEqual(w.send("POST", "/api/feeds/999/download-all").status, 404)
    }

    func testDeleteRemovesTheFileKeepsTheEpisodeAndNothingDownloadsItAgainUnlessAsked() throws {
        let w = try World()
        let data = DownloadHarness.bytes(15_000, seed: 3)
        w.h.server.route("/d.mp3") { .file(data, for: $0) }
        try w.h.queue.start()
        let id = try w.h.announce(title: "Delete me", path: "/d.mp3")
        w.h.run(until: { w.h.isSettled(id) })
        let path = try XCTUnwrap(w.h.record(id)?.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))

        let answer = w.send("DELETE", "/api/episodes/\(id)/download")
        XCTAssertEqual(answer.text, #"{"deleted":\#(id)}"# + "\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(w.h.record(id)?.state, .deleted)
        XCTAssertEqual(try w.h.store.episodeCount(feedID: w.h.feedID), 1)  // the episode stays known
        // Announced again (a re-delivery after a crash): the row exists, nothing is queued.
        try w.h.reannounce(id, path: "/d.mp3")
        XCTAssertEqual(w.h.queue.activeCount + w.h.queue.waitingCount, 0)
        XCTAssertEqual(w.h.record(id)?.state, .deleted)
        XCTAssertEqual(w.send("DELETE", "/api/episodes/\(id)/download").status, 409)
        // Asked for: downloaded again from zero.
        XCTAssertEqual(
            w.send("POST", "/api/episodes/\(id)/download").text,
            #"{"episode_id":\#(id),"result":"requeued"}"# + "\n")
        w.h.run(until: { w.h.isSettled(id) })
        XCTAssertEqual(w.h.record(id)?.state, .done)
        XCTAssertEqual(w.h.contents(path), data)
    }

    func testCancelStopsATransferInProgressAndKeepsItsPart() throws {
        let w = try World()
        let data = DownloadHarness.bytes(2_000_000, seed: 4)
        w.h.server.route("/slow.mp3") {
            var r = TestHTTPServer.Response.file(data, for: $0, etag: "\"s\"")
            r.stream = .init(pieceBytes: 10_000, interval: 0.02)
            return r
        }
        try w.h.queue.start()
        let id = try w.h.announce(title: "Slow", path: "/slow.mp3")
        w.h.run(until: { (w.h.queue.model.active.first?.bytes ?? 0) >= 20_000 })
        let active = try XCTUnwrap(w.send("GET", "/api/downloads").json["active"] as? [[String: Any]])
        XCTAssertEqual(active.map { $0["episode_id"] as? Int }, [Int(id)])
        XCTAssertGreaterThanOrEqual(active.first?["bytes"] as? Int ?? 0, 20_000)
        XCTAssertEqual(active.first?["total"] as? Int, 2_000_000)

        XCTAssertEqual(w.send("POST", "/api/episodes/\(id)/cancel").text, #"{"cancelled":\#(id)}"# + "\n")
        XCTAssertEqual(w.h.queue.activeCount, 0)
        XCTAssertEqual(w.h.queue.model.active.count, 0)
        XCTAssertEqual(w.h.queue.model.failedCount, 0)  // cancelled is not failed
        let record = try XCTUnwrap(w.h.record(id))
        XCTAssertEqual(record.state, .failed)
        XCTAssertEqual(record.error, DownloadLedger.cancelledMessage)
        XCTAssertNil(record.nextRetry)
        w.h.run(until: { FileManager.default.fileExists(atPath: record.path + ".part") }, seconds: 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: record.path + ".part"))
        XCTAssertEqual(w.send("POST", "/api/episodes/\(id)/cancel").status, 409)
    }

    func testAFeedsSecretOpensOnlyThatFeedsFilesAndTheLibrarysOpensAll() throws {
        let w = try World()
        let data = DownloadHarness.bytes(5_000, seed: 8)
        w.h.server.route("/l.mp3") { .file(data, for: $0) }
        try w.h.queue.start()
        let id = try w.h.announce(title: "Local", path: "/l.mp3")
        w.h.run(until: { w.h.isSettled(id) })
        let other = try w.h.store.add(url: "http://feeds.example/other.xml", title: "Other").id
        let mine = try w.h.store.localFeedSecret(scope: w.h.feedID)
        let theirs = try w.h.store.localFeedSecret(scope: other)
        let library = try w.h.store.localFeedSecret(scope: FeedStore.libraryScope)
        let tail =
            "/media/\(id)/" + WebDownloads.encode(try XCTUnwrap(w.h.store.localFeedEntry(episodeID: id)).fileName)
        XCTAssertTrue(w.send("GET", "/local/\(mine)" + tail).fileBytes == data)
        XCTAssertTrue(w.send("GET", "/local/\(library)" + tail).fileBytes == data)
        XCTAssertEqual(w.send("GET", "/local/\(theirs)" + tail).status, 404)
        XCTAssertEqual(w.send("GET", "/local/\(String(repeating: "0", count: 64))" + tail).status, 404)
        XCTAssertEqual(w.send("GET", "/local/\(mine)/media/\(id)/other-name.mp3").status, 404)
        XCTAssertTrue(w.send("GET", "/local/\(mine)/feed.xml").text.contains("/local/\(mine)" + tail))
        XCTAssertFalse(w.send("GET", "/local/\(theirs)/feed.xml").text.contains("<item>"))
        XCTAssertEqual(w.send("POST", "/local/\(mine)/feed.xml").status, 405)
    }

    func testWithoutAQueueTheControlRoutesSayDownloadsAreOff() throws {
        let web = try WebFixture()
        let router = WebRouter(
            data: web.data, control: web.control, access: web.access, metrics: web.metrics, hub: nil,
            downloads: WebDownloads(store: web.store, folders: [], queue: nil))
        let request = HTTPRequest(
            method: "POST", target: "/api/episodes/1/download",
            headers: ["Host": "127.0.0.1:8080", "Content-Type": "application/json"])
        guard case .response(let answer) = router.reply(request) else { return XCTFail("not a response") }
        XCTAssertEqual(answer.status, 503)
    }
}

/// A `WebControl` for routes that never change subscriptions.
final class NoControl: WebControl {
    func addFeed(url: String, title: String?) throws -> FeedRecord { throw StoreError.noSuchFeed(url) }
    func removeFeed(id: Int64) throws { throw StoreError.noSuchFeed(String(id)) }
    func pollFeed(id: Int64) -> Bool { false }
    func pollAll() {}
    func importOutlines(_ outlines: [OPMLOutline]) throws -> WebImportSummary { WebImportSummary() }
    func exportOPML(revealingCredentials: Bool) throws -> String { "" }
}

extension HTTPResponse {
    /// The bytes of the file body (its descriptor taken and closed), empty without one.
    var fileBytes: [UInt8] {
        guard let file, let fd = file.take() else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Int(file.length))
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(file.offset)) }
        return n == bytes.count ? bytes : []
    }

    /// The body as a JSON object (empty when it is not one).
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
}
