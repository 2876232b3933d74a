import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// What the command line writes to the store reaches a running queue at SIGHUP
/// (`reloadSettings()`) or the next start: requests are named and queued, a download queued
/// again starts, a cancelled one stops. The failure count counts downloads, not attempts.
@Suite(.serialized) struct DownloadControlReloadTests {
    func storeEpisode(_ h: DownloadHarness, _ title: String, path: String) throws -> Int64 {
        try h.store.database.run(
            "INSERT INTO episodes (feed_id, identity, title, published, first_seen, enclosure_url) VALUES (?1, ?2, ?3, 1600000000, 1600000000, ?4)",
            .integer(h.feedID), .text("old:" + title), .text(title), .text(h.server.url(path)))
        return h.store.database.lastInsertRowID
    }

    @Test func requestsAreQueuedAtStartAndAtReload() throws {
        let h = try DownloadHarness()
        let a = DownloadHarness.bytes(8_000, seed: 1)
        h.server.route("/a.mp3") { .file(a, for: $0) }
        h.server.route("/b.mp3") { .file(a, for: $0) }
        let first = try storeEpisode(h, "A", path: "/a.mp3")
        try DownloadLedger(store: h.store).request(episodeID: first, at: Date())
        try h.queue.start()
        #expect(try DownloadLedger(store: h.store).requests() == [])
        #expect(h.record(first)?.path == h.directory + "/Loopback Radio/2020-09-13 A.mp3")
        h.run(until: { h.isSettled(first) })
        #expect(h.state(first) == .done)

        let second = try storeEpisode(h, "B", path: "/b.mp3")
        try DownloadLedger(store: h.store).request(episodeID: second, at: Date())
        #expect(h.record(second) == nil)
        h.queue.reloadSettings()
        #expect(h.queue.activeCount == 1)
        h.run(until: { h.isSettled(second) })
        #expect(h.state(second) == .done)
        #expect(h.contents(h.record(second)?.path ?? "") == a)
    }

    @Test func aCancelInTheStoreStopsTheTransferAtReloadAndARequeueRestartsIt() throws {
        let h = try DownloadHarness()
        let data = DownloadHarness.bytes(1_000_000, seed: 2)
        let slow = Shared(true)
        h.server.route("/s.mp3") {
            var r = TestHTTPServer.Response.file(data, for: $0, etag: "\"s\"")
            if slow.value { r.stream = .init(pieceBytes: 10_000, interval: 0.02) }
            return r
        }
        try h.queue.start()
        let id = try h.announce(title: "Slow", path: "/s.mp3")
        h.run(until: { (h.queue.model.active.first?.bytes ?? 0) >= 20_000 })
        let ledger = DownloadLedger(store: h.store)
        #expect(try ledger.cancel(episodeID: id))
        h.queue.reloadSettings()
        #expect(h.queue.activeCount == 0)
        #expect(h.state(id) == .failed)
        #expect(h.record(id)?.error == "cancelled")

        slow.value = false
        #expect(try ledger.requeue(episodeID: id, now: Date()))
        h.queue.reloadSettings()
        #expect(h.queue.activeCount == 1)
        h.run(until: { h.isSettled(id) })
        #expect(h.state(id) == .done)
        #expect(h.contents(h.record(id)?.path ?? "") == data)
    }

    @Test func theFailureCountCountsDownloadsNotAttempts() {
        let model = DownloadsViewModel()
        model.end(id: 1, finished: false)
        model.end(id: 1, finished: false)
        model.end(id: 1, finished: false)
        model.end(id: 2, finished: false)
        #expect(model.failedCount == 2)
        model.end(id: 1, finished: true)
        #expect(model.failedCount == 1)
        #expect(model.finishedCount == 1)
        model.clearFailure(id: 2)
        #expect(model.failedCount == 0)
    }
}
