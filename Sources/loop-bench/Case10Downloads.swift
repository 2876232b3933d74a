import CLibeventBaseline
import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// Case 10: N concurrent episode downloads of S MB each from a loopback evhttp file
/// server through `DownloadQueue` (libcurl multi on `EventLoop.main`, files written off the
/// loop), beside the `curl` command-line tool fetching the same files in parallel
/// (`curl --parallel`) in the same run. Also the loop thread's CPU per MB.
enum DownloadsBench {
    static func run(_ settings: RunSettings) -> [Row] {
        let count = settings.size(50, quick: 4)
        let megabytes = settings.size(20, quick: 1)
        let size = megabytes << 20
        setenv("no_proxy", "127.0.0.1", 1)
        setenv("NO_PROXY", "127.0.0.1", 1)
        EventLoop.enableThreadSupport()
        var port: Int32 = 0
        guard let server = clb_file_server_start(size, &port) else {
            return [failed("could not start the loopback file server")]
        }
        defer { clb_file_server_stop(server) }
        let curlPath = ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let urls = (0..<count).map { "http://127.0.0.1:\(port)/file/\($0)" }
        let runs = settings.quick ? 1 : 3
        var ours: [Double] = []
        var cpuPerMB: [Double] = []
        var theirs: [Double] = []
        var problems: [String] = []
        // One warm-up of each, then alternating measured runs.
        for run in 0...runs {
            do {
                let (seconds, cpu) = try downloadWithQueue(urls, size: size)
                if run > 0 {
                    ours.append(Double(count * size) / 1e6 / seconds)
                    cpuPerMB.append(cpu * 1e6 / (Double(count * size) / 1e6))
                }
            } catch {
                problems.append("podcast-watch: \(error)")
            }
            if let curlPath {
                do {
                    let seconds = try downloadWithCurl(curlPath, urls, size: size)
                    if run > 0 { theirs.append(Double(count * size) / 1e6 / seconds) }
                } catch {
                    problems.append("curl: \(error)")
                }
            }
        }
        let value = Stats(samples: ours)
        let baseline = Stats(samples: theirs)
        let note =
            "\(count) files x \(megabytes) MB in parallel from a loopback evhttp server, written under \(scratch.path)"
            + (curlPath == nil ? "; curl not installed (make deps installs it)" : "")
            + (problems.isEmpty ? "" : "; problems: " + Set(problems).sorted().joined(separator: "; "))
        return [
            Row(
                name: "10 downloads, throughput", unit: "MB/s", better: .higher, value: value,
                baselineName: curlPath == nil ? nil : "curl --parallel (CLI)",
                baseline: theirs.isEmpty ? nil : baseline,
                target: ">= 90% of curl", met: theirs.isEmpty ? nil : value.median >= 0.9 * baseline.median, note: note),
            Row(
                name: "10 downloads, loop-thread CPU", unit: "cpu µs/MB", better: .lower,
                value: Stats(samples: cpuPerMB),
                note:
                    "CPU time of the main (loop) thread per MB downloaded: libcurl's callbacks, the copy into the file buffers, progress; the writes run on the file queues"
            ),
        ]
    }

    private static func failed(_ note: String) -> Row {
        Row(name: "10 downloads, throughput", unit: "MB/s", better: .higher, value: Stats(samples: []), note: note)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Both sides write to /dev/shm when it exists: the figure is the network and loop path,
    /// not the disk (our `fsync` before the rename, which curl does not do, would otherwise
    /// dominate on a slow disk).
    static let scratch: URL = {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
            access("/dev/shm", W_OK) == 0
        {
            return URL(fileURLWithPath: "/dev/shm")
        }
        return FileManager.default.temporaryDirectory
    }()

    private static func temporaryDirectory() throws -> URL {
        let directory =
            scratch
            .appendingPathComponent("loop-bench-dl-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Every URL through a fresh store and `DownloadQueue` on the main loop; wall seconds and
    /// loop-thread CPU seconds.
    static func downloadWithQueue(_ urls: [String], size: Int) throws -> (Double, Double) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FeedStore(path: directory.appendingPathComponent("state.sqlite").path)
        let feed = try store.add(url: "http://127.0.0.1/feed.xml", title: "Bench")
        var settings = DownloadSettings(
            directory: directory.appendingPathComponent("media").path,
            naming: try DownloadNaming(template: "{id}.{ext}"),
            maxConcurrent: urls.count, maxPerHost: urls.count)
        settings.maxAttempts = 1
        let loop = EventLoop.main
        let fetcher = HTTPFetcher(eventBase: loop.base)
        let queue = DownloadQueue(store: store, fetcher: fetcher, settings: settings, loop: loop)
        var finished = 0
        var failures: [String] = []
        queue.onEvent = { event in
            switch event.kind {
            case .finished: finished += 1
            case .failed:
                finished += 1
                failures.append(event.error ?? "?")
            default: break
            }
        }
        try queue.start()
        let start = nowNanoseconds()
        let cpuStart = clb_thread_cpu_ns()
        for (index, url) in urls.enumerated() {
            try store.database.run(
                "INSERT INTO episodes (feed_id, identity, title, first_seen, enclosure_url) VALUES (?1, ?2, ?3, 0, ?4)",
                .integer(feed.id), .text("e\(index)"), .text("Episode \(index)"), .text(url))
            var episode = EpisodeAnnouncement(
                time: Date(), feedURL: feed.url, podcastTitle: "Bench", title: "Episode \(index)", guid: "e\(index)",
                url: url, mimeType: "audio/mpeg", length: Int64(size))
            episode.feedID = feed.id
            queue.announced(episode, episodeID: store.database.lastInsertRowID)
        }
        runMainLoop(until: { finished == urls.count })
        let elapsed = Double(nowNanoseconds() - start) / 1e9
        let cpu = Double(clb_thread_cpu_ns() - cpuStart) / 1e9
        queue.stop()
        fetcher.cancelAll()
        if let first = failures.first { throw Failure(description: "\(failures.count) failed: \(first)") }
        return (elapsed, cpu)
    }

    /// The same URLs with `curl --parallel` writing to files; wall seconds.
    static func downloadWithCurl(_ curl: String, _ urls: [String], size: Int) throws -> Double {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        var arguments = ["--parallel", "--parallel-max", String(urls.count), "--silent", "--show-error", "--fail"]
        for (index, url) in urls.enumerated() {
            arguments += ["-o", directory.appendingPathComponent("\(index).mp3").path, url]
        }
        process.arguments = arguments
        let start = nowNanoseconds()
        try process.run()
        process.waitUntilExit()
        let elapsed = Double(nowNanoseconds() - start) / 1e9
        guard process.terminationStatus == 0 else {
            throw Failure(description: "exit status \(process.terminationStatus)")
        }
        return elapsed
    }
}
