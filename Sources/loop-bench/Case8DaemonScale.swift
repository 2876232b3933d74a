import CLibeventBaseline
import Foundation
import LoopScheduler
import PodcastKit

/// Case 8: `PodcastDaemon` (HTTPFetcher on EventLoop.main, FeedParser, FeedStore on SQLite) over
/// N feeds served by an in-process loopback evhttp server: one full poll cycle (every feed 200
/// with a body), then a second cycle in which every feed answers 304 to the stored ETag.
enum DaemonScale {
    /// `--feeds N`: poll N feeds instead of 2,000 (60 with --quick), to see how a cost scales.
    nonisolated(unsafe) static var feedCountOverride: Int?

    struct Cycle {
        var seconds: Double
        /// VmHWM during the cycle (the peak was reset when it started), bytes.
        var peakRSS: Double
        /// CPU time of the main (loop) thread during the cycle, seconds.
        var cpuSeconds: Double
    }

    static func run(_ settings: RunSettings) -> [Row] {
        let feeds = feedCountOverride ?? settings.size(2_000, quick: 60)
        let itemsPerFeed = 20
        // curl honours *_proxy variables; the loopback server must be reached directly.
        setenv("no_proxy", "127.0.0.1", 1)
        setenv("NO_PROXY", "127.0.0.1", 1)
        EventLoop.enableThreadSupport()  // the server's base is stopped from this thread
        var port: Int32 = 0
        guard let server = clb_server_start(Int32(itemsPerFeed), &port) else {
            return [
                Row(
                    name: "8 daemon", unit: "s", better: .lower, value: Stats(samples: []),
                    note: "could not start the loopback server")
            ]
        }
        defer { clb_server_stop(server) }

        // The minimum of 5 runs: a full run polls 2,000 feeds four times per run.
        let runs = 5
        var first: [Cycle] = []
        var second: [Cycle] = []
        var failures = 0
        // One warm-up pair, then the measured runs; each run starts from an empty database.
        for run in 0...runs {
            guard let (cold, warm, failed) = try? pair(feeds: feeds, port: Int(port)) else {
                failures += feeds
                continue
            }
            failures += failed
            if run > 0 {
                first.append(cold)
                second.append(warm)
            }
        }
        var total = 0
        var notModified = 0
        clb_server_counts(server, &total, &notModified)
        let firstTime = Stats(samples: first.map(\.seconds))
        let secondTime = Stats(samples: second.map(\.seconds))
        let firstRate = Stats(samples: first.map { Double(feeds) / $0.seconds })
        let secondRate = Stats(samples: second.map { Double(feeds) / $0.seconds })
        let firstCPU = Stats(samples: first.map { $0.cpuSeconds * 1e6 / Double(feeds) })
        let secondCPU = Stats(samples: second.map { $0.cpuSeconds * 1e6 / Double(feeds) })
        let firstPeak = Stats(samples: first.map { $0.peakRSS / 1e6 })
        let secondPeak = Stats(samples: second.map { $0.peakRSS / 1e6 })
        let served =
            "\(feeds) feeds x \(itemsPerFeed) items; server answered \(total) requests, \(notModified) with 304; failed polls: \(failures)"
        return [
            Row(
                name: "8 daemon, 304 cycle vs first cycle", unit: "s", better: .lower, value: secondTime,
                baselineName: "first cycle (all 200)", baseline: firstTime,
                target: "304 cycle >= 5x cheaper (ratio <= 0.2)", met: secondTime.median * 5 <= firstTime.median,
                note: served),
            Row(
                name: "8 daemon, throughput (304 cycle)", unit: "feeds/s", better: .higher, value: secondRate,
                baselineName: "first cycle", baseline: firstRate),
            Row(
                name: "8 daemon, loop-thread CPU (304 cycle)", unit: "cpu µs/feed", better: .lower, value: secondCPU,
                baselineName: "first cycle", baseline: firstCPU,
                note:
                    "CPU time of the main thread (fetch driving, parsing, SQLite) per feed; the rest of the wall time is waiting"
            ),
            Row(
                name: "8 daemon, peak RSS (304 cycle)", unit: "MB", better: .lower, value: secondPeak,
                baselineName: "first cycle", baseline: firstPeak,
                note:
                    "process VmHWM during the cycle (malloc_trim, then peak reset through /proc/self/clear_refs at its start); includes what earlier cases left resident unless run alone: loop-bench 8"
            ),
        ]
    }

    /// A fresh store with `feeds` subscriptions, then two `--once` cycles.
    static func pair(feeds: Int, port: Int) throws -> (Cycle, Cycle, Int) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("loop-bench-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("state.sqlite").path)
        for index in 0..<feeds {
            _ = try store.add(url: "http://127.0.0.1:\(port)/feed/\(index)")
        }
        let cold = try cycle(store: store)
        let warm = try cycle(store: store)
        return (cold.0, warm.0, cold.1 + warm.1)
    }

    /// One `--once` poll of every feed on the main loop; returns its time, peak RSS growth and
    /// how many polls failed.
    static func cycle(store: FeedStore) throws -> (Cycle, Int) {
        let loop = EventLoop.main
        let fetcher = HTTPFetcher(eventBase: loop.base)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: LoopScheduler.main,
            configuration: .init(once: true))
        let finished = Box<[Int64]?>(nil)
        daemon.onFinished = { failed in finished.value = failed }
        clb_malloc_trim()
        resetPeakRSS()
        let rssBefore = Double(clb_rss_bytes())
        let start = nowNanoseconds()
        let cpuStart = clb_thread_cpu_ns()
        try daemon.start()
        runMainLoop(until: { finished.value != nil })
        let elapsed = nowNanoseconds() - start
        let cpu = clb_thread_cpu_ns() - cpuStart
        let peak = peakRSS() ?? rssBefore
        daemon.stop()
        fetcher.cancelAll()
        return (
            Cycle(seconds: Double(elapsed) / 1e9, peakRSS: peak, cpuSeconds: Double(cpu) / 1e9),
            finished.value?.count ?? 0
        )
    }

    /// Resets VmHWM to the current RSS (Linux: "5" to /proc/self/clear_refs).
    static func resetPeakRSS() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }

    /// VmHWM of /proc/self/status, in bytes.
    static func peakRSS() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.split(separator: " ").dropFirst().first { Int($0) != nil }
            return digits.flatMap { Double($0) }.map { $0 * 1024 }
        }
        return nil
    }
}
