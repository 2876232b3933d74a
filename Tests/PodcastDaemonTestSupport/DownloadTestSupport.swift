import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore
import PodcastTestSupport

/// A real loop, a fetcher, a store with one feed, a `DownloadQueue` into a temporary folder and
/// a loopback server: the download tests' world. Used on the test's thread.
package final class DownloadHarness {
    package let loop: EventLoop
    package let fetcher: HTTPFetcher
    package let server: TestHTTPServer
    package let temp = TemporaryDirectory("pw-dl")
    package let store: FeedStore
    package let feedID: Int64
    package var queue: DownloadQueue!
    package var events: [DownloadEvent] = []
    package var downloaded: [DownloadRecord] = []
    package var warnings: [String] = []
    package var settings: DownloadSettings
    package var directory: String { temp.path + "/media" }

    package init(configure: (inout DownloadSettings) -> Void = { _ in }) throws {
        loop = try EventLoop()
        fetcher = HTTPFetcher(loop: loop)
        server = try TestHTTPServer()
        store = try FeedStore(path: temp.file("state.sqlite"))
        feedID = try store.add(url: "http://feeds.example/podcast.xml", title: "Loopback Radio").id
        settings = DownloadSettings(directory: temp.path + "/media")
        settings.stallSeconds = 5
        configure(&settings)
        makeQueue()
    }

    /// A new queue on the same store (what a restarted `run` does).
    /// `clock`: the queue's monotonic clock (progress pacing, rates); the real one by default.
    package func makeQueue(clock: (() -> MonotonicInstant)? = nil) {
        queue?.stop()
        if let clock {
            queue = DownloadQueue(
                store: store, fetcher: fetcher, settings: settings,
                deliver: { [loop] work in loop.execute(work) },
                schedule: { [loop] seconds, action in
                    loop.scheduleTimer(after: .milliseconds(Int(PollPolicy.clampedDelay(seconds) * 1000)), action)
                }, clock: clock)
        } else {
            queue = DownloadQueue(store: store, fetcher: fetcher, settings: settings, loop: loop)
        }
        queue.onEvent = { [unowned self] in events.append($0) }
        queue.onDownloaded = { [unowned self] in downloaded.append($0) }
        queue.onWarning = { [unowned self] in warnings.append($0) }
    }

    private var nextEpisode: Int64 = 0

    /// Stores an episode and announces it to the queue; returns its id.
    @discardableResult
    package func announce(
        title: String?, path: String, published: Date? = Date(timeIntervalSince1970: 1_700_000_000),
        length: Int64? = nil, mime: String? = "audio/mpeg", podcast: String? = "Loopback Radio"
    ) throws -> Int64 {
        nextEpisode += 1
        let url = server.url(path)
        try store.database.run(
            """
            INSERT INTO episodes (feed_id, identity, title, first_seen, enclosure_url, enclosure_length)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            """,
            .integer(feedID), .text("guid:\(nextEpisode)-\(UUID().uuidString)"), SQLValue(title), .date(Date()),
            .text(url), SQLValue(length))
        let id = store.database.lastInsertRowID
        var a = EpisodeAnnouncement(
            time: Date(), feedURL: "http://feeds.example/podcast.xml", podcastTitle: podcast, title: title,
            guid: "g\(id)", url: url, published: published, mimeType: mime, length: length)
        a.feedID = feedID
        queue.announced(a, episodeID: id)
        return id
    }

    /// Announces stored episode `id` again (a re-delivered announcement), as `announce` did.
    package func reannounce(_ id: Int64, path: String) throws {
        var a = EpisodeAnnouncement(
            time: Date(), feedURL: "http://feeds.example/podcast.xml", podcastTitle: "Loopback Radio", title: "again",
            guid: "g\(id)", url: server.url(path), published: Date(timeIntervalSince1970: 1_700_000_000),
            mimeType: "audio/mpeg", length: nil)
        a.feedID = feedID
        queue.announced(a, episodeID: id)
    }

    /// Runs the loop until `condition` holds or `seconds` of wall time passed (a watchdog, not a
    /// timing assertion). Returns the loop iterations it took.
    @discardableResult
    package func run(until condition: () -> Bool, seconds: Double = 20) -> Int {
        var expired = false
        let watchdog = loop.scheduleTimer(after: .milliseconds(Int(seconds * 1000))) { expired = true }
        var iterations = 0
        while !condition() && !expired {
            loop.runOnce(blocking: true)
            iterations += 1
        }
        watchdog.cancel()
        return iterations
    }

    package func record(_ id: Int64) -> DownloadRecord? { try? DownloadLedger(store: store).record(episodeID: id) }

    package func state(_ id: Int64) -> DownloadRecord.State? { record(id)?.state }

    package func isSettled(_ id: Int64) -> Bool {
        guard let state = state(id) else { return false }
        return (state == .done || state == .failed) && queue.activeCount == 0
    }

    package static func bytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        var x = UInt32(seed) &* 2_654_435_761
        for i in 0..<count {
            x = x &* 1_103_515_245 &+ 12345
            out[i] = UInt8(truncatingIfNeeded: x >> 16)
        }
        return out
    }

    package func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}

/// A value the test thread sets and the server thread reads.
package final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    package init(_ value: Value) { stored = value }
    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
