import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Synchronization
import XCTest

@testable import PodcastCommandLine
@testable import PodcastFeeds
@testable import PodcastStore

/// The built `podcast-watch` binary as a child process: signals, crash safety, exit codes.
/// Waits poll for a condition with a generous deadline; nothing depends on speed.
final class DaemonProcessTests: XCTestCase {
    var server: TestHTTPServer!
    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        dir = TemporaryDirectory("process")
    }

    override func tearDown() {
        server.stop()
        dir = nil
    }

    /// The test bundle and the binary it runs are built in one configuration.
    static let isDebugBuild: Bool = {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }()

    static var binary: String? {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [folder, folder.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("podcast-watch").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// A running child with its stdout collected.
    final class Child: @unchecked Sendable {
        let process = Process()
        private let output = Mutex("")
        private let errors = Mutex("")
        private let closed = Mutex(0)  // pipes that reached end of file
        var stdout: String { output.withLock { $0 } }
        var stderr: String { errors.withLock { $0 } }
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        init(_ binary: String, _ arguments: [String], environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            if !environment.isEmpty {
                process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            out.fileHandleForReading.readabilityHandler = { [self] h in
                let data = h.availableData
                if data.isEmpty {
                    h.readabilityHandler = nil
                    closed.withLock { $0 += 1 }
                }
                output.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            err.fileHandleForReading.readabilityHandler = { [self] h in
                let data = h.availableData
                if data.isEmpty {
                    h.readabilityHandler = nil
                    closed.withLock { $0 += 1 }
                }
                errors.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        /// Polls `condition` until it holds or 20 s pass.
        @discardableResult
        func wait(for condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while !condition() {
                if Date() > deadline { return false }
                usleep(5_000)
            }
            return true
        }

        /// Waits for the exit and for both pipes to be read to their end (hooks the child started
        /// may hold them a little longer); the exit status, or nil after 20 s.
        func finish() -> Int32? {
            guard wait(for: { !process.isRunning }) else {
                process.terminate()
                return nil
            }
            wait { closed.withLock { $0 } == 2 }
            return process.terminationStatus
        }

        func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

        func events(_ kind: String) -> [[String: Any]] {
            lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["event"] as? String == kind }
        }
    }

    func start(_ arguments: String..., environment: [String: String] = [:]) throws -> Child {
        guard let binary = Self.binary else { throw XCTSkip("podcast-watch binary not built next to the tests") }
        return try Child(binary, ["--state", dir.path] + arguments, environment: environment)
    }

    func pendingGuids() throws -> Set<String> {
        try withStore { Set(try $0.pendingAnnouncements().compactMap(\.guid)) }
    }

    @discardableResult
    func withStore<T>(_ body: (FeedStore) throws -> T) throws -> T {
        let store = try FeedStore(path: dir.file(StateLocation.databaseName))
        return try body(store)
    }

    func testKillingTheDaemonMidRunLosesNothing() throws {
        let feeds = 20
        try withStore { store in
            for i in 0..<feeds {
                var response = TestHTTPServer.Response.ok(TestFeeds.rss(["f\(i)-a", "f\(i)-b", "f\(i)-c"]))
                response.delay = 0.02 * Double(i)  // completions spread over many iterations
                server.route("/f\(i)", response)
                try store.add(url: server.url("/f\(i)"))
            }
        }
        let first = try start("run", "--json")
        XCTAssertTrue(first.wait { first.events("feed_updated").count >= 3 })
        first.signal(SIGKILL)
        _ = first.finish()
        let announcedBefore = first.events("new_episode").compactMap { $0["episode_guid"] as? String }

        var stored = Set<String>()
        try withStore { store in
            XCTAssertEqual(try store.database.scalarString("PRAGMA integrity_check"), "ok")
            for feed in try store.feeds() {
                // Each poll is one transaction: all three episodes or none, never part.
                let episodes = try store.episodes(feedID: feed.id)
                XCTAssertTrue(episodes.count == 0 || episodes.count == 3, "\(feed.url) has \(episodes.count) episodes")
                XCTAssertEqual(episodes.count == 3, feed.lastSuccess != nil)
                stored.formUnion(episodes.compactMap(\.guid))
            }
        }
        // Stored but not written when the process died: still pending. (Written lines may be
        // pending too, when the kill fell between the write and its confirmation.)
        let pending = try pendingGuids()
        XCTAssertTrue(
            stored.subtracting(announcedBefore).isSubset(of: pending),
            "\(stored.subtracting(announcedBefore).subtracting(pending)) lost")
        XCTAssertTrue(pending.isSubset(of: stored))

        let second = try start("run", "--once", "--json")
        XCTAssertEqual(second.finish(), 0, second.stderr)
        let announcedAfter = second.events("new_episode").compactMap { $0["episode_guid"] as? String }
        // At least once: every episode of every feed announced (first sync of 3 announces all 3),
        // and only announcements still pending at the kill repeated.
        XCTAssertEqual(Set(announcedBefore + announcedAfter).count, feeds * 3)
        XCTAssertTrue(Set(announcedBefore).intersection(announcedAfter).isSubset(of: pending))
        XCTAssertEqual(announcedAfter.count, Set(announcedAfter).count)
        XCTAssertEqual(try pendingGuids(), [])
        try withStore { store in
            for feed in try store.feeds() { XCTAssertEqual(try store.episodeCount(feedID: feed.id), 3) }
            XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM episodes"), Int64(feeds * 3))
        }
    }

    /// Uses the test-only failpoint `PODCAST_WATCH_CRASH_AFTER_COMMITS=N`: the daemon SIGKILLs
    /// itself right after its Nth poll's transaction commits, before announcing anything. Only
    /// debug builds read it (`#if DEBUG` in `CommandRunner.runDaemon`), so under `swift test -c
    /// release` this test skips.
    func testKilledBetweenCommitAndOutputAnnouncesOnTheNextStart() throws {
        try XCTSkipUnless(Self.isDebugBuild, "PODCAST_WATCH_CRASH_AFTER_COMMITS exists in debug builds only")
        server.route("/k", .ok(TestFeeds.rss(["k1", "k2", "k3"])))
        try withStore { try $0.add(url: server.url("/k")) }
        let out = dir.file("hook.out")
        // The failpoint SIGKILLs the daemon right after the poll's transaction commits.
        let first = try start(
            "run", "--json", "--hook", "printf '%s\\n' \"$EPISODE_GUID\" >> \(out)",
            environment: ["PODCAST_WATCH_CRASH_AFTER_COMMITS": "1"])
        _ = first.finish()
        XCTAssertEqual(first.process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(first.process.terminationStatus, SIGKILL)
        XCTAssertEqual(first.stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        try withStore { store in
            let feed = try XCTUnwrap(try store.feeds().first)
            XCTAssertEqual(try store.episodeCount(feedID: feed.id), 3)
            XCTAssertEqual(feed.newEpisodeCount, 3)
        }
        XCTAssertEqual(try pendingGuids(), ["k1", "k2", "k3"])

        // The next run announces them before anything else, then polls: nothing new there.
        let second = try start("run", "--once", "--json", "--hook", "printf '%s\\n' \"$EPISODE_GUID\" >> \(out)")
        XCTAssertEqual(second.finish(), 0, second.stderr)
        let kinds = second.lines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["event"] as? String
        }
        XCTAssertEqual(kinds, ["new_episode", "new_episode", "new_episode", "feed_updated"])
        // Undated items: the store's newest-first is document order; reported oldest first.
        XCTAssertEqual(second.events("new_episode").compactMap { $0["episode_guid"] as? String }, ["k3", "k2", "k1"])
        XCTAssertEqual(second.events("new_episode").first?["feed_url"] as? String, server.url("/k"))
        XCTAssertEqual(second.events("feed_updated").first?["new_episodes"] as? Int, 0)
        // Hooks run concurrently: compare as sorted lines.
        XCTAssertEqual(
            try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").sorted(), ["k1", "k2", "k3"])
        XCTAssertEqual(try pendingGuids(), [])

        let third = try start("run", "--once", "--json")
        XCTAssertEqual(third.finish(), 0, third.stderr)
        XCTAssertEqual(third.events("new_episode").count, 0)
    }

    func testSIGHUPReloadsAndSIGUSR1PollsNowAndSIGTERMStopsCleanly() throws {
        server.route("/a", .ok(TestFeeds.rss(["a1"])))
        server.route("/b", .ok(TestFeeds.rss(["b1", "b2"])))
        try withStore { try $0.add(url: server.url("/a")) }
        let child = try start("run", "--json")
        XCTAssertTrue(child.wait { child.events("feed_updated").count == 1 })

        try withStore { try $0.add(url: server.url("/b")) }  // a second process writes the DB
        child.signal(SIGHUP)
        XCTAssertTrue(child.wait { child.events("feed_updated").count == 2 })
        XCTAssertEqual(child.events("feed_updated").last?["feed_url"] as? String, server.url("/b"))
        // Undated items count as newest first in document order, and are reported oldest first.
        XCTAssertEqual(child.events("new_episode").compactMap { $0["episode_guid"] as? String }, ["a1", "b2", "b1"])

        child.signal(SIGUSR1)
        XCTAssertTrue(child.wait { child.events("feed_updated").count == 4 })
        XCTAssertEqual(server.requestCount("/a"), 2)
        XCTAssertEqual(server.requestCount("/b"), 2)

        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
        XCTAssertEqual(child.events("new_episode").count, 3)
    }

    func testSIGINTDuringAFetchWritesNothingAndExitsZero() throws {
        var slow = TestHTTPServer.Response.ok(TestFeeds.rss(["s1"]))
        slow.delay = 30
        server.route("/slow", slow)
        try withStore { try $0.add(url: server.url("/slow")) }
        let child = try start("run", "--json")
        XCTAssertTrue(child.wait { self.server.requestCount("/slow") == 1 })
        child.signal(SIGINT)
        XCTAssertEqual(child.finish(), 0)
        XCTAssertEqual(child.stdout, "")
        try withStore { store in
            let feed = try XCTUnwrap(try store.feeds().first)
            XCTAssertNil(feed.lastCheck)
            XCTAssertEqual(try store.episodeCount(feedID: feed.id), 0)
        }
    }

    func testOnceInterruptedBeforeEveryFeedWasPolledExitsWithTheSignalStatus() throws {
        var slow = TestHTTPServer.Response.ok(TestFeeds.rss(["s1"]))
        slow.delay = 30
        server.route("/slow", slow)
        try withStore { try $0.add(url: server.url("/slow")) }
        for (sig, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let before = server.requestCount("/slow")
            let child = try start("run", "--once", "--json")
            XCTAssertTrue(child.wait { self.server.requestCount("/slow") == before + 1 })
            child.signal(sig)
            XCTAssertEqual(child.finish(), status)
            XCTAssertEqual(child.stdout, "")
        }
        XCTAssertEqual(ExitCode.interrupted.rawValue, 130)
        XCTAssertEqual(ExitCode.terminated.rawValue, 143)
    }

    func testOnceExitsOneAndNamesTheFailedFeed() throws {
        server.route("/ok", .ok(TestFeeds.rss(["o1"])))
        server.route("/broken", .status(500, "boom"))
        try withStore { store in
            try store.add(url: server.url("/ok"))
            try store.add(url: server.url("/broken"), title: "Broken Show")
        }
        let child = try start("run", "--once")
        XCTAssertEqual(child.finish(), 1)
        XCTAssertTrue(
            child.stderr.contains("podcast-watch: feed failed: Broken Show <\(server.url("/broken"))>: "), child.stderr)
        XCTAssertEqual(child.events("feed_error").count, 1)
        XCTAssertEqual(child.events("new_episode").count, 1)
    }

    func testHookGetsEpisodeDetailsInTheEnvironment() throws {
        server.route("/h", .ok(TestFeeds.rss(["$(touch pwned)"])))
        try withStore { try $0.add(url: server.url("/h")) }
        let out = dir.file("hook.out")
        let child = try start("run", "--once", "--hook", "printf '%s|%s\\n' \"$EPISODE_GUID\" \"$FEED_URL\" >> \(out)")
        XCTAssertEqual(child.finish(), 0, child.stderr)  // --once waits for the hooks
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "$(touch pwned)|\(server.url("/h"))\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/pwned"))
    }

    func testHookSeesNoDaemonDescriptors() throws {
        server.route("/d", .ok(TestFeeds.rss(["d1"])))
        try withStore { try $0.add(url: server.url("/d")) }
        let out = dir.file("fds.out")
        // While it runs, the daemon holds SQLite files, libevent's fds and curl's kept-alive socket.
        let child = try start("run", "--once", "--hook", "ls /proc/self/fd > \(out)")
        XCTAssertEqual(child.finish(), 0, child.stderr)
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "0\n1\n2\n3\n")
    }

    func testDemoPollsTheBundledSamplesOnceAndExits() throws {
        let child = try start("demo", "--json")
        XCTAssertEqual(child.finish(), 0, child.stderr)
        // A first sync of 5-episode feeds: the newest 3 of each announced, as `run` does.
        // Parsed on a worker pool: the feeds finish in any order.
        XCTAssertEqual(
            child.events("feed_updated").compactMap { $0["podcast_title"] as? String }.sorted(),
            ["Night Shift Notes", "The Slow Build", "Tidepool Radio"])
        XCTAssertEqual(child.events("feed_updated").compactMap { $0["new_episodes"] as? Int }, [3, 3, 3])
        XCTAssertEqual(child.events("new_episode").count, 9)
        XCTAssertEqual(
            child.events("new_episode").filter { $0["podcast_title"] as? String == "The Slow Build" }.compactMap {
                $0["episode_title"] as? String
            },
            ["Chapter 3: The Rot Goes Deeper", "Chapter 4: Seventeen Coats", "Chapter 5: Launch Day"])
        XCTAssertEqual(child.events("feed_error").count, 0)
    }

    func testDemoTableCountsTheSameAnnouncements() throws {
        guard let binary = Self.binary else { throw XCTSkip("podcast-watch binary not built next to the tests") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            throw XCTSkip("no script(1) for a pseudo-terminal")
        }
        // script(1) gives the child a terminal, so it draws the live table.
        let child = try Child("/usr/bin/script", ["-qec", "COLUMNS=80 \(binary) demo", "/dev/null"])
        XCTAssertEqual(child.finish(), 0, child.stderr)
        let frame = try XCTUnwrap(child.stdout.components(separatedBy: TerminalRenderer.clearScreen).last)
        let lines = frame.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\u{1B}[2K", with: "")
            .replacingOccurrences(of: "\u{1B}[J", with: "").split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        XCTAssertEqual(lines.first, "podcast-watch: 3 feeds, 9 new")
        let rows = lines.filter {
            ["Night Shift Notes", "The Slow Build", "Tidepool Radio"].contains(where: $0.hasPrefix)
        }
        XCTAssertEqual(rows.map { $0.split(separator: " ").last.map(String.init) }, ["3", "3", "3"])
        XCTAssertEqual(lines.filter { $0.hasPrefix("  2024-") }.count, 9)  // the newest-episodes list
    }

    func testUsageErrorExitsTwo() throws {
        let child = try start("run", "--bogus")
        XCTAssertEqual(child.finish(), 2)
        XCTAssertEqual(child.stdout, "")
        XCTAssertTrue(
            child.stderr.hasPrefix("podcast-watch: unknown option '--bogus' for 'run'\nUsage: podcast-watch run"),
            child.stderr)
    }
}
