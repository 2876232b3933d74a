import CLibeventBaseline
import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore

/// Case 8: `PodcastDaemon` as `podcast-watch run --once` builds it (HTTPFetcher on EventLoop.main,
/// parsing on a `WorkerPool`, FeedStore on SQLite) over N feeds (100,000 by default) served by an
/// in-process loopback evhttp server on 8 loopback addresses: one full poll cycle (every feed 200
/// with a 20-item body), then a second cycle in which every feed answers 304 to the stored ETag.
/// The same pair at 2,000 feeds, in the same run, is the baseline that per-feed costs must not
/// grow from (nothing in the poll path may be O(N) per feed).
enum DaemonScale {
    /// `--feeds N`: poll N feeds instead of 100,000 (60 with --quick), to see how a cost scales.
    nonisolated(unsafe) static var feedCountOverride: Int?

    struct Cycle {
        var seconds: Double
        /// CPU time of the main (loop) thread during the cycle, seconds.
        var cpuSeconds: Double
    }

    /// One fresh store, subscribed, then polled twice.
    struct Pair {
        var feeds: Int
        var subscribeSeconds: Double
        var cold: Cycle
        var warm: Cycle
        var failures: Int
        /// VmHWM from just before the store was created to the end of the 304 cycle, bytes.
        var peakRSS: Double
        /// The database file plus its WAL after both cycles, bytes.
        var databaseBytes: Double
    }

    static let itemsPerFeed = 20

    static func run(_ settings: RunSettings) -> [Row] {
        let feeds = feedCountOverride ?? settings.size(100_000, quick: 60)
        let referenceFeeds = min(feeds, settings.size(2_000, quick: 20))
        // curl honours *_proxy variables; the loopback server must be reached directly.
        setenv("no_proxy", "*", 1)
        setenv("NO_PROXY", "*", 1)
        EventLoop.enableThreadSupport()  // the server's base is stopped from this thread
        var port: Int32 = 0
        // 8 hosts x the daemon's 4 fetches per host = its 32 fetches in flight.
        var hosts: Int32 = 8
        guard let server = clb_server_start(Int32(itemsPerFeed), &hosts, &port) else {
            return [
                Row(
                    name: "8 daemon", unit: "s", better: .lower, value: Stats(samples: []),
                    note: "could not start the loopback server")
            ]
        }
        defer { clb_server_stop(server) }
        // One worker per core, as `run` has: parsing never runs on the loop thread.
        let workers = WorkerPool(loop: EventLoop.main)

        // A warm-up pair, then the 2,000-feed reference pairs, then the full-size pair (once:
        // at 100,000 feeds one pair takes minutes). Each pair starts from an empty database.
        func measured(_ count: Int) -> Pair? {
            try? pair(feeds: count, hosts: Int(hosts), port: Int(port), workers: workers)
        }
        _ = measured(referenceFeeds)
        let referenceRuns = settings.quick ? 1 : 3
        let reference = (0..<referenceRuns).compactMap { _ in measured(referenceFeeds) }
        let full = feeds == referenceFeeds ? reference : [measured(feeds)].compactMap { $0 }
        var total = 0
        var notModified = 0
        clb_server_counts(server, &total, &notModified)
        let failures =
            (reference + full).reduce(0) { $0 + $1.failures }
            + (referenceRuns - reference.count) * referenceFeeds + (full.isEmpty ? feeds : 0)

        func stats(_ pairs: [Pair], _ value: (Pair) -> Double) -> Stats { Stats(samples: pairs.map(value)) }
        let warmTime = stats(full) { $0.warm.seconds }
        let coldTime = stats(full) { $0.cold.seconds }
        let warmRate = stats(full) { Double($0.feeds) / $0.warm.seconds }
        let coldRate = stats(full) { Double($0.feeds) / $0.cold.seconds }
        let warmCPU = stats(full) { $0.warm.cpuSeconds * 1e6 / Double($0.feeds) }
        let coldCPU = stats(full) { $0.cold.cpuSeconds * 1e6 / Double($0.feeds) }
        let referenceWarmCPU = stats(reference) { $0.warm.cpuSeconds * 1e6 / Double($0.feeds) }
        let referenceColdCPU = stats(reference) { $0.cold.cpuSeconds * 1e6 / Double($0.feeds) }
        let referenceWarmRate = stats(reference) { Double($0.feeds) / $0.warm.seconds }
        let peak = stats(full) { $0.peakRSS / 1e6 }
        let referencePeak = stats(reference) { $0.peakRSS / 1e6 }
        let size = stats(full) { $0.databaseBytes / 1e6 }
        let referenceSize = stats(reference) { $0.databaseBytes / 1e6 }
        let subscribe = full.first.map { String(format: "%.1f", $0.subscribeSeconds) } ?? "?"
        let served =
            "\(feeds) feeds x \(itemsPerFeed) items on \(hosts) loopback hosts; server answered \(total) requests, \(notModified) with 304; failed polls: \(failures); subscribing them took \(subscribe) s"
        let big = "\(feeds) feeds"
        let small = "\(referenceFeeds) feeds"
        return [
            Row(
                name: "8 daemon, 304 cycle vs first cycle (\(big))", unit: "s", better: .lower, value: warmTime,
                baselineName: "first cycle (all 200)", baseline: coldTime,
                target: "304 cycle >= 5x cheaper (ratio <= 0.2)",
                met: warmTime.median * 5 <= coldTime.median, note: served),
            Row(
                name: "8 daemon, throughput (304 cycle, \(big))", unit: "feeds/s", better: .higher, value: warmRate,
                baselineName: "first cycle", baseline: coldRate,
                target: ">= 5,000 feeds/s (2 cores)", met: warmRate.median >= 5_000),
            Row(
                name: "8 daemon, 304-cycle throughput at \(big) vs \(small)", unit: "feeds/s", better: .higher,
                value: warmRate, baselineName: small, baseline: referenceWarmRate),
            Row(
                name: "8 daemon, loop-thread CPU (304 cycle, \(big))", unit: "cpu µs/feed", better: .lower,
                value: warmCPU, baselineName: small, baseline: referenceWarmCPU,
                target: "per-feed cost does not grow with N (ratio <= 1.25)",
                met: warmCPU.median <= referenceWarmCPU.median * 1.25,
                note:
                    "CPU time of the main thread (fetch driving, SQLite, the view models) per feed; parsing runs on the workers"
            ),
            Row(
                name: "8 daemon, loop-thread CPU (first cycle, \(big))", unit: "cpu µs/feed", better: .lower,
                value: coldCPU, baselineName: small, baseline: referenceColdCPU,
                target: "per-feed cost does not grow with N (ratio <= 1.25)",
                met: coldCPU.median <= referenceColdCPU.median * 1.25),
            Row(
                name: "8 daemon, peak RSS (\(big))", unit: "MB", better: .lower, value: peak,
                baselineName: small, baseline: referencePeak,
                target: "<= 150 MB", met: peak.median <= 150,
                note:
                    "process VmHWM from subscribing to the end of the 304 cycle (malloc_trim, then peak reset through /proc/self/clear_refs); includes what earlier cases left resident unless run alone: loop-bench 8"
            ),
            Row(
                name: "8 daemon, database size (\(big))", unit: "MB", better: .lower, value: size,
                baselineName: small, baseline: referenceSize,
                note: "the SQLite file plus its WAL after both cycles (\(itemsPerFeed) episodes per feed)"),
        ]
    }

    /// A fresh store with `feeds` subscriptions spread over `hosts` loopback hosts, then two
    /// `--once` cycles.
    static func pair(feeds: Int, hosts: Int, port: Int, workers: WorkerPool) throws -> Pair {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("loop-bench-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        clb_malloc_trim()
        resetPeakRSS()
        let rssBefore = Double(clb_rss_bytes())
        let path = directory.appendingPathComponent("state.sqlite").path
        var store: FeedStore? = try FeedStore(path: path)
        let subscribeStart = nowNanoseconds()
        for index in 0..<feeds {
            _ = try store!.add(url: "http://127.0.0.\(1 + index % max(1, hosts)):\(port)/feed/\(index)")
        }
        let subscribeSeconds = Double(nowNanoseconds() - subscribeStart) / 1e9
        debugPhase("subscribed \(feeds)")
        if ProcessInfo.processInfo.environment["LOOP_BENCH_DEBUG"] != nil { memoryBreakdown(store!) }
        let cold = try cycle(store: store!, workers: workers)
        debugPhase("first cycle")
        let warm = try cycle(store: store!, workers: workers)
        debugPhase("304 cycle")
        let peak = peakRSS() ?? rssBefore
        let databaseBytes = [path, path + "-wal"].reduce(0.0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)??.doubleValue
            return total + (size ?? 0)
        }
        store = nil
        return Pair(
            feeds: feeds, subscribeSeconds: subscribeSeconds, cold: cold.0, warm: warm.0,
            failures: cold.1 + warm.1, peakRSS: peak, databaseBytes: databaseBytes)
    }

    /// One `--once` poll of every feed on the main loop; returns its time and loop-thread CPU and
    /// how many polls failed.
    static func cycle(store: FeedStore, workers: WorkerPool) throws -> (Cycle, Int) {
        let loop = EventLoop.main
        let fetcher = HTTPFetcher(eventBase: loop.base, fileReader: workers)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, offLoop: workers, scheduler: LoopScheduler.main,
            configuration: .init(once: true))
        let finished = Box<[Int64]?>(nil)
        daemon.onFinished = { failed in finished.value = failed }
        let start = nowNanoseconds()
        let cpuStart = clb_thread_cpu_ns()
        try daemon.start()
        runMainLoop(until: { finished.value != nil })
        let elapsed = nowNanoseconds() - start
        let cpu = clb_thread_cpu_ns() - cpuStart
        debugPhase("  end of cycle, daemon alive")
        daemon.stop()
        fetcher.cancelAll()
        if ProcessInfo.processInfo.environment["LOOP_BENCH_DEBUG"] != nil {
            let probe = LeakProbe(daemon: daemon, library: daemon.library, fetcher: fetcher)
            DispatchQueue.main.async { probe.report() }
        }
        return (
            Cycle(seconds: Double(elapsed) / 1e9, cpuSeconds: Double(cpu) / 1e9),
            finished.value?.count ?? 0
        )
    }

    final class LeakProbe: @unchecked Sendable {
        weak var daemon: PodcastDaemon<LoopScheduler>?
        weak var library: LibraryViewModel?
        weak var fetcher: HTTPFetcher?
        init(daemon: PodcastDaemon<LoopScheduler>, library: LibraryViewModel, fetcher: HTTPFetcher) {
            self.daemon = daemon
            self.library = library
            self.fetcher = fetcher
        }
        func report() {
            let line =
                "  still alive after the cycle: daemon \(daemon != nil), library \(library != nil), fetcher \(fetcher != nil)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// What the daemon's per-feed state costs, measured piece by piece (LOOP_BENCH_DEBUG).
    static func memoryBreakdown(_ store: FeedStore) {
        func heap() -> Double { Double(clb_heap_in_use()) }
        let start = heap()
        guard let records = try? store.feeds() else { return }
        let afterRecords = heap()
        let library = LibraryViewModel()
        library.upsert(
            contentsOf: records.map { Podcast(id: $0.id, url: $0.url, title: $0.title ?? $0.feedTitle) })
        let afterLibrary = heap()
        let count = Double(max(1, records.count))
        let line = String(
            format: "  per feed: FeedRecord array %.0f B, LibraryViewModel %.0f B\n", (afterRecords - start) / count,
            (afterLibrary - afterRecords) / count)
        FileHandle.standardError.write(Data(line.utf8))
        withExtendedLifetime((records, library)) {}
    }

    static func debugPhase(_ label: String) {
        guard ProcessInfo.processInfo.environment["LOOP_BENCH_DEBUG"] != nil else { return }
        let line =
            "  \(label): rss \(clb_rss_bytes() / 1_000_000) MB, peak \(Int((peakRSS() ?? 0) / 1e6)) MB, heap in use \(clb_heap_in_use() / 1_000_000) MB\n"
        FileHandle.standardError.write(Data(line.utf8))
        // Where the resident pages are (heap and anonymous maps vs file-backed, e.g. SQLite's
        // -shm) and every malloc arena's size (mallinfo2 above sees only the main arena).
        if let rollup = try? String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8) {
            let wanted = ["Rss:", "Anonymous:", "Shared_Clean:", "Private_Clean:", "Shared_Dirty:"]
            let parts = rollup.split(separator: "\n").filter { l in wanted.contains { l.hasPrefix($0) } }
            let text = parts.map {
                $0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ")
            }
            FileHandle.standardError.write(Data(("    smaps: " + text.joined(separator: ", ") + " kB\n").utf8))
        }
        if ProcessInfo.processInfo.environment["LOOP_BENCH_DEBUG"] == "arenas" { clb_malloc_stats() }
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
