import Foundation
import LoopScheduler
import PodcastEngine

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's counters for `/metrics`, in the Prometheus text exposition format (version
/// 0.0.4): `# HELP`, `# TYPE`, one sample per line, histograms as cumulative `_bucket{le=...}`
/// plus `_sum` and `_count`. Counters are fed by `WebView` (poll outcomes and announcements from
/// the library's journal) and `TimedFetcher` (fetch durations); gauges are read when scraped.
///
/// Threading: the loop's thread only.
public final class WebMetrics {
    /// Poll outcomes as the journal reports them: `fetched` (a feed was parsed and stored),
    /// `not_modified` (304), `failed` (network, HTTP or parse error).
    public static let outcomes = ["fetched", "not_modified", "failed"]
    /// Upper bounds of the fetch-duration buckets, in seconds (`+Inf` is implied).
    public static let durationBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    /// Polls finished, by outcome.
    public private(set) var polls: [String: Int] = [:]
    /// Episodes announced (journal `new_episode` events).
    public private(set) var episodesAnnounced = 0
    /// Fetches per bucket (non-cumulative; the last is over the largest bound).
    public private(set) var durationCounts = [Int](repeating: 0, count: WebMetrics.durationBuckets.count + 1)
    /// Sum of the fetch durations, in seconds.
    public private(set) var durationSum = 0.0

    /// Read when scraped: the feeds (for the per-status gauge).
    public var podcasts: () -> [Podcast] = { [] }
    /// Read when scraped: SSE clients connected.
    public var sseClients: () -> Int = { 0 }
    /// Read when scraped: HTTP connections open.
    public var httpConnections: () -> Int = { 0 }
    /// Read when scraped: iterations of the loop in which the library changed (the web view's
    /// `updateView()` count).
    public var viewUpdates: () -> Int = { 0 }
    /// Read when scraped: the loop's end-of-iteration flushes (`EventLoop.completedFlushCount`).
    public var loopFlushes: () -> Int = { 0 }
    /// Read when scraped: the process's resident set in bytes (`WebMetrics.residentBytes`).
    public var residentBytes: () -> Int? = WebMetrics.residentBytes
    /// Read when scraped: the download queue's figures (`nil`: downloads are off, no samples).
    public var downloads: () -> DownloadFigures? = { nil }

    /// What `/metrics` says of downloads.
    public struct DownloadFigures: Equatable, Sendable {
        /// Bytes received since start (`podcast_watch_download_bytes_total`).
        public var bytes: Int64
        /// Downloads completed since start (`podcast_watch_downloads_completed_total`).
        public var completed: Int
        /// Downloads whose last attempt failed (`podcast_watch_downloads_failed`).
        public var failed: Int
        /// Transfers in flight (`podcast_watch_downloads_active`).
        public var active: Int
        /// Downloads waiting for a slot (`podcast_watch_download_queue_length`).
        public var queued: Int

        /// Figures as given.
        public init(bytes: Int64, completed: Int, failed: Int, active: Int, queued: Int) {
            self.bytes = bytes
            self.completed = completed
            self.failed = failed
            self.active = active
            self.queued = queued
        }

        /// The figures of `queue` now.
        public init(_ queue: DownloadQueue) {
            self.init(
                bytes: queue.model.bytesReceived, completed: queue.model.finishedCount,
                failed: queue.model.failedCount, active: queue.activeCount, queued: queue.waitingCount)
        }
    }

    /// Empty counters.
    public init() {}

    /// Counts one journal event.
    public func record(_ event: FeedEvent) {
        switch event {
        case .feedUpdated(let report): polls[report.notModified ? "not_modified" : "fetched", default: 0] += 1
        case .feedError: polls["failed", default: 0] += 1
        case .newEpisode: episodesAnnounced += 1
        default: break
        }
    }

    /// Counts one fetch that took `seconds`.
    public func recordFetch(seconds: Double) {
        let index = WebMetrics.durationBuckets.firstIndex { seconds <= $0 } ?? WebMetrics.durationBuckets.count
        durationCounts[index] += 1
        durationSum += seconds
    }

    /// The exposition text.
    public func render() -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        family("podcast_watch_polls_total", "counter", "Feed polls finished, by outcome.")
        for outcome in WebMetrics.outcomes {
            out += "podcast_watch_polls_total{outcome=\"\(outcome)\"} \(polls[outcome] ?? 0)\n"
        }
        family("podcast_watch_fetch_duration_seconds", "histogram", "Time from starting a fetch to its result.")
        var cumulative = 0
        for (bound, count) in zip(WebMetrics.durationBuckets, durationCounts) {
            cumulative += count
            out += "podcast_watch_fetch_duration_seconds_bucket{le=\"\(WebMetrics.format(bound))\"} \(cumulative)\n"
        }
        cumulative += durationCounts.last ?? 0
        out += "podcast_watch_fetch_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
        out += "podcast_watch_fetch_duration_seconds_sum \(WebMetrics.format(durationSum))\n"
        out += "podcast_watch_fetch_duration_seconds_count \(cumulative)\n"
        family("podcast_watch_feeds", "gauge", "Subscribed feeds, by status.")
        var byStatus: [Podcast.Status: Int] = [:]
        for p in podcasts() { byStatus[p.status, default: 0] += 1 }
        for status in WebJSON.statusOrder {
            out += "podcast_watch_feeds{status=\"\(status.rawValue)\"} \(byStatus[status] ?? 0)\n"
        }
        family("podcast_watch_episodes_announced_total", "counter", "New episodes announced since start.")
        out += "podcast_watch_episodes_announced_total \(episodesAnnounced)\n"
        family(
            "podcast_watch_view_updates_total", "counter",
            "Loop iterations in which the library changed (one web view update each).")
        out += "podcast_watch_view_updates_total \(viewUpdates())\n"
        family(
            "podcast_watch_loop_flushes_total", "counter",
            "End-of-iteration flushes of the event loop that delivered a source.")
        out += "podcast_watch_loop_flushes_total \(loopFlushes())\n"
        family("podcast_watch_sse_clients", "gauge", "Dashboard event-stream clients connected.")
        out += "podcast_watch_sse_clients \(sseClients())\n"
        family("podcast_watch_http_connections", "gauge", "HTTP connections open.")
        out += "podcast_watch_http_connections \(httpConnections())\n"
        if let figures = downloads() { renderDownloads(figures, into: &out) }
        if let rss = residentBytes() {
            family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.")
            out += "process_resident_memory_bytes \(rss)\n"
        }
        return out
    }

    private func renderDownloads(_ figures: DownloadFigures, into out: inout String) {
        let samples: [(String, String, String, String)] = [
            (
                "podcast_watch_download_bytes_total", "counter", "Bytes received by downloads since start.",
                "\(figures.bytes)"
            ),
            (
                "podcast_watch_downloads_completed_total", "counter", "Downloads completed since start.",
                "\(figures.completed)"
            ),
            ("podcast_watch_downloads_failed", "gauge", "Downloads whose last attempt failed.", "\(figures.failed)"),
            ("podcast_watch_downloads_active", "gauge", "Downloads in flight.", "\(figures.active)"),
            ("podcast_watch_download_queue_length", "gauge", "Downloads waiting for a slot.", "\(figures.queued)"),
        ]
        for (name, type, help, value) in samples {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
    }

    /// The exposition content type.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Resident set size in bytes from `/proc/self/statm` (a few bytes the kernel makes up on
    /// the spot; no disk is touched), `nil` where it cannot be read.
    public static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        let fields = String(decoding: buffer[..<n], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    // Prometheus floats: shortest form, no trailing ".0" for whole numbers.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// A `FeedFetching` that times each fetch of the fetcher it wraps into `WebMetrics`
/// (a cancelled fetch is not counted).
public final class TimedFetcher: FeedFetching {
    private let inner: FeedFetching
    private let metrics: WebMetrics
    private let clock: () -> MonotonicInstant

    /// Times `inner`'s fetches into `metrics`.
    public init(
        _ inner: FeedFetching, metrics: WebMetrics, clock: @escaping () -> MonotonicInstant = MonotonicInstant.now
    ) {
        self.inner = inner
        self.metrics = metrics
        self.clock = clock
    }

    /// `inner.fetch`, timed.
    public func fetch(_ request: FetchRequest, completion: @escaping (FetchResult) -> Void) -> Cancellable {
        let start = clock()
        return inner.fetch(request) { [metrics, clock] result in
            metrics.recordFetch(seconds: start.distance(to: clock()).seconds)
            completion(result)
        }
    }
}
