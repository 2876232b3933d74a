import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// `run --once` with a failing hook ended at once, after one retry or after the whole backoff on
/// identical input, depending on whether the hook's failure came before or after the last poll.
/// Here it comes first, on purpose: the second feed's server holds its answer until the hook
/// has failed. The pass must still end without waiting out the 15 s backoff, with exactly one
/// attempt made and the retry kept for the next run. (The runner's side: `DeferredHookRetryTests`.)
final class OnceHookRetryTests: XCTestCase {
    func testOnceEndsWithoutWaitingOutABackoffAndKeepsTheRetry() throws {
        let dir = TemporaryDirectory("once-hook")
        let server = try TestHTTPServer()
        defer { server.stop() }
        let out = dir.file("out")
        let hookFailed: @Sendable () -> Bool = { (try? String(contentsOfFile: out, encoding: .utf8))?.isEmpty == false }
        // Held until the hook of the first feed's episode has run (at most 10 s).
        server.route("/slow.xml") { _ in
            let deadline = Date().addingTimeInterval(10)
            while !hookFailed() && Date() < deadline { usleep(5_000) }
            return .ok(TestFeeds.rss([]))
        }
        try TestFeeds.rss(["a"]).write(toFile: dir.file("feed.xml"), atomically: true, encoding: .utf8)
        let state = dir.file("state")
        _ = try BinaryRun.run(["--state", state, "add", dir.file("feed.xml")])
        _ = try BinaryRun.run(["--state", state, "add", "--no-check", server.url("/slow.xml")])

        let child = try DaemonProcessTests.Child(
            try BinaryRun.binary(),
            ["--state", state, "run", "--once", "--json", "--hook", "echo x-$EPISODE_GUID >> \(out); exit 1"],
            environment: ["XDG_CONFIG_HOME": dir.file("no-config"), "PODCAST_WATCH_CONFIG": ""])
        XCTAssertEqual(child.finish(), 0, child.stderr)
        // One attempt: the 15 s retry was not waited for (the old code ran it, and then either
        // stopped or waited for the next one).
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "x-a\n")
        let failures = child.events("hook_failed")
        XCTAssertEqual(failures.map { $0["attempt"] as? Int }, [1])
        XCTAssertEqual(failures.first?["gave_up"] as? Bool, false)
        XCTAssertTrue(
            child.stderr.contains(
                "hook exited with status 1 for \"Episode a\" (attempt 1 of 4); the retry is kept for the next run (due in 15 s)"
            ),
            child.stderr)
        // Kept for the next run, as attempt 2, due 15 s after the failure.
        let owed = try FeedStore(path: state + "/" + StateLocation.databaseName).pendingHookRetries().map(\.retry)
        XCTAssertEqual(owed.map(\.attempt), [2])
        XCTAssertEqual(owed.map(\.lastError), ["exited with status 1"])
        XCTAssertGreaterThan(owed.first?.due ?? .distantPast, Date())
    }
}
