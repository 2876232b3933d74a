import Foundation
import Synchronization
import XCTest
@testable import PodcastKit

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
        var stdout: String { output.withLock { $0 } }
        var stderr: String { errors.withLock { $0 } }
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        init(_ binary: String, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            out.fileHandleForReading.readabilityHandler = { [self] h in
                let data = h.availableData
                output.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            err.fileHandleForReading.readabilityHandler = { [self] h in
                let data = h.availableData
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

        func finish() -> Int32? {
            guard wait(for: { !process.isRunning }) else {
                process.terminate()
                return nil
            }
            return process.terminationStatus
        }

        func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

        func events(_ kind: String) -> [[String: Any]] {
            lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["event"] as? String == kind }
        }
    }

    func start(_ arguments: String...) throws -> Child {
        guard let binary = Self.binary else { throw XCTSkip("podcast-watch binary not built next to the tests") }
        return try Child(binary, ["--state", dir.path] + arguments)
    }

    static func rss(_ guids: [String]) -> String {
        let items = guids.map { "<item><guid>\($0)</guid><title>Episode \($0)</title><enclosure url=\"http://m/\($0).mp3\" type=\"audio/mpeg\"/></item>" }.joined()
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Show</title>\(items)</channel></rss>"
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
                var response = TestHTTPServer.Response.ok(Self.rss(["f\(i)-a", "f\(i)-b", "f\(i)-c"]))
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

        try withStore { store in
            XCTAssertEqual(try store.database.scalarString("PRAGMA integrity_check"), "ok")
            for feed in try store.feeds() {
                // Each poll is one transaction: all three episodes or none, never part.
                let count = try store.episodeCount(feedID: feed.id)
                XCTAssertTrue(count == 0 || count == 3, "\(feed.url) has \(count) episodes")
                XCTAssertEqual(count == 3, feed.lastSuccess != nil)
            }
        }

        let second = try start("run", "--once", "--json")
        XCTAssertEqual(second.finish(), 0, second.stderr)
        let announcedAfter = second.events("new_episode").compactMap { $0["episode_guid"] as? String }
        XCTAssertTrue(Set(announcedBefore).isDisjoint(with: announcedAfter), "an episode was announced twice")
        XCTAssertEqual(Set(announcedBefore + announcedAfter).count, announcedBefore.count + announcedAfter.count)
        try withStore { store in
            for feed in try store.feeds() { XCTAssertEqual(try store.episodeCount(feedID: feed.id), 3) }
            XCTAssertEqual(try store.database.scalarInt("SELECT count(*) FROM episodes"), Int64(feeds * 3))
        }
    }

    func testSIGHUPReloadsAndSIGUSR1PollsNowAndSIGTERMStopsCleanly() throws {
        server.route("/a", .ok(Self.rss(["a1"])))
        server.route("/b", .ok(Self.rss(["b1", "b2"])))
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
        var slow = TestHTTPServer.Response.ok(Self.rss(["s1"]))
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

    func testOnceExitsOneAndNamesTheFailedFeed() throws {
        server.route("/ok", .ok(Self.rss(["o1"])))
        server.route("/broken", .status(500, "boom"))
        try withStore { store in
            try store.add(url: server.url("/ok"))
            try store.add(url: server.url("/broken"), title: "Broken Show")
        }
        let child = try start("run", "--once")
        XCTAssertEqual(child.finish(), 1)
        XCTAssertTrue(child.stderr.contains("podcast-watch: feed failed: Broken Show <\(server.url("/broken"))>: "), child.stderr)
        XCTAssertEqual(child.events("feed_error").count, 1)
        XCTAssertEqual(child.events("new_episode").count, 1)
    }

    func testHookGetsEpisodeDetailsInTheEnvironment() throws {
        server.route("/h", .ok(Self.rss(["$(touch pwned)"])))
        try withStore { try $0.add(url: server.url("/h")) }
        let out = dir.file("hook.out")
        let child = try start("run", "--once", "--hook", "printf '%s|%s\\n' \"$EPISODE_GUID\" \"$FEED_URL\" >> \(out)")
        XCTAssertEqual(child.finish(), 0, child.stderr)  // --once waits for the hooks
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "$(touch pwned)|\(server.url("/h"))\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/pwned"))
    }

    func testDemoPollsTheBundledSamplesOnceAndExits() throws {
        let child = try start("demo", "--json")
        XCTAssertEqual(child.finish(), 0, child.stderr)
        XCTAssertEqual(child.events("feed_updated").count, 3)
        XCTAssertEqual(child.events("new_episode").count, 15)
        XCTAssertEqual(child.events("feed_error").count, 0)
    }

    func testUsageErrorExitsTwo() throws {
        let child = try start("run", "--bogus")
        XCTAssertEqual(child.finish(), 2)
        XCTAssertEqual(child.stdout, "")
        XCTAssertTrue(child.stderr.hasPrefix("podcast-watch: unknown option '--bogus' for 'run'\nUsage: podcast-watch run"), child.stderr)
    }
}
