import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// The queue's limits and the download events' JSON lines.
@Suite(.serialized) struct DownloadSchedulingTests {
    @Test func globalAndPerHostLimitsHold() throws {
        let h = try DownloadHarness {
            $0.maxConcurrent = 3
            $0.maxPerHost = 2
        }
        let data = DownloadHarness.bytes(60_000, seed: 3)
        h.server.route("/s.mp3") { request in
            var r = TestHTTPServer.Response.file(data, for: request)
            r.stream = .init(pieceBytes: 10_000, interval: 0.02)
            return r
        }
        try h.queue.start()
        var ids: [Int64] = []
        for i in 0..<3 { ids.append(try h.announce(title: "A\(i)", path: "/s.mp3?a=\(i)")) }
        // "localhost" is another host key than "127.0.0.1" for the same server.
        for i in 0..<3 {
            let id = try h.announce(title: "B\(i)", path: "/s.mp3?b=\(i)")
            try h.store.database.run(
                "UPDATE downloads SET url = replace(url, '127.0.0.1', 'localhost') WHERE episode_id = ?1", .integer(id))
            // The feed links it so too (a download follows its episode's current enclosure URL).
            try h.store.database.run(
                "UPDATE episodes SET enclosure_url = replace(enclosure_url, '127.0.0.1', 'localhost') WHERE id = ?1",
                .integer(id))
            ids.append(id)
        }
        // The B downloads were queued with their old URL: start over from the store.
        h.makeQueue()
        var maxActive = 0
        var maxPerHost = 0
        try h.queue.start()
        h.run(until: {
            let active = h.queue.model.active.compactMap {
                try? DownloadLedger(store: h.store).record(episodeID: $0.id)
            }
            maxActive = max(maxActive, active.count)
            let perHost = Dictionary(grouping: active) { URLComponents(string: $0.url)?.host ?? "" }.values.map(\.count)
            maxPerHost = max(maxPerHost, perHost.max() ?? 0)
            return ids.allSatisfy { h.state($0) == .done }
        })
        #expect(ids.allSatisfy { h.state($0) == .done })
        #expect(maxActive == 3)
        #expect(maxPerHost == 2)
        for id in ids { #expect(h.contents(h.record(id)!.path) == data) }
    }

    /// Only a lower bound on time: a loaded machine makes it slower, never faster.
    @Test func rateLimitIsSharedByTheDownloadsInFlight() throws {
        let h = try DownloadHarness { $0.bytesPerSecond = 1_000_000 }
        let data = DownloadHarness.bytes(3_000_000, seed: 13)
        h.server.route("/r.mp3") { .file(data, for: $0) }
        try h.queue.start()
        let started = MonotonicInstant.now()
        let a = try h.announce(title: "RA", path: "/r.mp3?a")
        let b = try h.announce(title: "RB", path: "/r.mp3?b")
        h.run(until: { h.state(a) == .done && h.state(b) == .done }, seconds: 60)
        let seconds = Double(started.distance(to: MonotonicInstant.now()).nanoseconds) / 1e9
        #expect(h.state(a) == .done && h.state(b) == .done)
        // 6 MB at 1 MB/s is 6 s. libcurl reads what the socket holds before it checks the rate
        // (a loopback socket buffered up to about 3.5 MB of the two transfers in one loaded run),
        // so 2.5 s is what is certain (a limit per download would take 3 s less that buffering).
        #expect(seconds >= 2.5, "took \(seconds) s")
        #expect(h.contents(h.record(a)!.path) == data)
    }

    @Test func hostileTitlesLandInsideTheDirectory() throws {
        let h = try DownloadHarness()
        let data = DownloadHarness.bytes(4_000, seed: 12)
        h.server.route("/t.mp3") { .file(data, for: $0) }
        try h.queue.start()
        let id = try h.announce(title: "../../../../tmp/escape\u{0}\u{1B}]0;x\u{7}", path: "/t.mp3", podcast: "../..")
        h.run(until: { h.state(id) == .done && h.queue.activeCount == 0 })
        let path = try #require(h.record(id)?.path)
        #expect(path == h.directory + "/_/2023-11-14 .._.._.._.._tmp_escape]0;x.mp3")
        #expect(URL(fileURLWithPath: path).standardized.path.hasPrefix(h.directory + "/"))
        #expect(h.contents(path) == data)
        let everything = try FileManager.default.subpathsOfDirectory(atPath: h.temp.path)
        #expect(everything.filter { !$0.hasPrefix("media") && !$0.hasPrefix("state.sqlite") } == [])
    }

    @Test func unnumberedUndoesNumbered() {
        #expect(DownloadNaming.unnumbered("S/a (2).mp3") == ("S/a.mp3", 2))
        #expect(DownloadNaming.unnumbered("S/a (12)") == ("S/a", 12))
        #expect(DownloadNaming.unnumbered("S/a.mp3") == ("S/a.mp3", 1))
        #expect(DownloadNaming.unnumbered("S/a (x).mp3") == ("S/a (x).mp3", 1))
        #expect(DownloadNaming.unnumbered("S (2)/a.mp3") == ("S (2)/a.mp3", 1))
    }

    @Test func eventJSONLines() {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        var e = DownloadEvent(
            kind: .started, time: time, episodeID: 7, feedURL: "http://u:p@h/f.xml", podcastTitle: "Show",
            episodeTitle: "Ep", episodeURL: "http://h/e.mp3", path: "/m/Show/e.mp3", bytes: 100, total: 1000)
        #expect(
            FeedEvent.download(e).jsonLine
                == "{\"event\":\"download_started\",\"time\":\"2023-11-14T22:13:20Z\",\"feed_url\":\"http://u:***@h/f.xml\",\"podcast_title\":\"Show\",\"episode_title\":\"Ep\",\"episode_url\":\"http://h/e.mp3\",\"path\":\"/m/Show/e.mp3\",\"resumed_from\":100,\"total\":1000}\n"
        )
        e.kind = .progress
        e.bytes = 500
        e.bytesPerSecond = 1234.4
        #expect(
            FeedEvent.download(e).jsonLine
                == "{\"event\":\"download_progress\",\"time\":\"2023-11-14T22:13:20Z\",\"feed_url\":\"http://u:***@h/f.xml\",\"podcast_title\":\"Show\",\"episode_title\":\"Ep\",\"path\":\"/m/Show/e.mp3\",\"bytes\":500,\"total\":1000,\"bytes_per_second\":1234}\n"
        )
        e.kind = .finished
        e.bytes = 1000
        e.seconds = 1.23456
        #expect(
            FeedEvent.download(e).jsonLine
                == "{\"event\":\"download_finished\",\"time\":\"2023-11-14T22:13:20Z\",\"feed_url\":\"http://u:***@h/f.xml\",\"podcast_title\":\"Show\",\"episode_title\":\"Ep\",\"episode_url\":\"http://h/e.mp3\",\"path\":\"/m/Show/e.mp3\",\"bytes\":1000,\"seconds\":1.235}\n"
        )
        e.kind = .failed
        e.error = "HTTP 503"
        e.attempts = 2
        e.nextRetry = time.addingTimeInterval(60)
        #expect(
            FeedEvent.download(e).jsonLine
                == "{\"event\":\"download_failed\",\"time\":\"2023-11-14T22:13:20Z\",\"feed_url\":\"http://u:***@h/f.xml\",\"podcast_title\":\"Show\",\"episode_title\":\"Ep\",\"episode_url\":\"http://h/e.mp3\",\"path\":\"/m/Show/e.mp3\",\"error\":\"HTTP 503\",\"bytes\":1000,\"attempts\":2,\"next_retry\":\"2023-11-14T22:14:20Z\"}\n"
        )
    }
}
