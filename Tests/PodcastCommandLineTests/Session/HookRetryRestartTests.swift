import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// The built binary across a restart: a hook retry waiting when
/// the daemon stops, and a hook still running at SIGTERM, are both run at the next start
/// instead of being lost (the retry lived only in memory) or orphaned (the hook kept running
/// after the daemon exited).
final class HookRetryRestartTests: XCTestCase {
    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        dir = TemporaryDirectory("hook-restart")
        try TestFeeds.rss(["a"]).write(toFile: dir.file("feed.xml"), atomically: true, encoding: .utf8)
        _ = try BinaryRun.run(["--state", dir.file("state"), "add", dir.file("feed.xml")])
    }

    override func tearDown() { dir = nil }

    func start(hook: String, retries: Int = 2) throws -> DaemonProcessTests.Child {
        let binary = try BinaryRun.binary()
        return try DaemonProcessTests.Child(
            binary,
            ["--state", dir.file("state"), "run", "--json", "--hook", hook, "--hook-retries", String(retries)],
            environment: ["XDG_CONFIG_HOME": dir.file("no-config"), "PODCAST_WATCH_CONFIG": ""])
    }

    func owed() throws -> [PendingHookRetry] {
        try FeedStore(path: dir.file("state/\(StateLocation.databaseName)")).pendingHookRetries().map(\.retry)
    }

    func contents(_ name: String) -> String { (try? String(contentsOfFile: dir.file(name), encoding: .utf8)) ?? "" }

    func testARetryWaitingAtStopRunsAtTheNextStart() throws {
        let out = dir.file("out")
        let first = try start(hook: "echo fail-$EPISODE_GUID >> \(out); exit 1")
        XCTAssertTrue(first.wait { first.events("hook_failed").count == 1 })
        let event = try XCTUnwrap(first.events("hook_failed").first)
        XCTAssertEqual(event["attempt"] as? Int, 1)
        XCTAssertEqual(event["attempts"] as? Int, 3)
        XCTAssertEqual(event["gave_up"] as? Bool, false)
        XCTAssertNotNil(event["retry_at"] as? String)
        XCTAssertEqual(event["error"] as? String, "exited with status 1")
        first.signal(SIGTERM)
        XCTAssertEqual(first.finish(), 0)
        let saved = try owed()
        XCTAssertEqual(saved.map(\.attempt), [2])
        XCTAssertEqual(saved.map(\.lastError), ["exited with status 1"])
        XCTAssertGreaterThan(saved[0].due, Date())  // 15 s after the failure

        // Due now (instead of waiting the 15 s out): the next run takes it up at once, as
        // attempt 2, with the hook it is given.
        let store = try FeedStore(path: dir.file("state/\(StateLocation.databaseName)"))
        _ = try store.database.run("UPDATE hook_retries SET due = 0")
        let second = try start(hook: "echo ok-$EPISODE_GUID >> \(out)")
        XCTAssertTrue(second.wait { self.contents("out").contains("ok-a") })
        XCTAssertTrue(second.wait { (try? self.owed().isEmpty) == true })
        second.signal(SIGTERM)
        XCTAssertEqual(second.finish(), 0)
        XCTAssertEqual(contents("out"), "fail-a\nok-a\n")  // once each: nothing announced twice
        XCTAssertEqual(second.events("new_episode").count, 0)
    }

    /// An episode both owed a retry and still pending announcement (the run died between the
    /// hook's failure and the confirmation) runs its hook once at the next start, not twice.
    func testAnOwedRetryOfAnEpisodeAnnouncedAgainRunsOnce() throws {
        let out = dir.file("out")
        let binary = try BinaryRun.binary()
        let plain = try DaemonProcessTests.Child(
            binary, ["--state", dir.file("state"), "run", "--once", "--json"],
            environment: ["XDG_CONFIG_HOME": dir.file("no-config"), "PODCAST_WATCH_CONFIG": ""])
        XCTAssertEqual(plain.finish(), 0)
        let store = try FeedStore(path: dir.file("state/\(StateLocation.databaseName)"))
        let episode = try XCTUnwrap(try store.episodes(feedID: 1).first)
        _ = try store.database.run("UPDATE episodes SET announce_pending = 1 WHERE id = ?1", .integer(episode.id))
        try store.saveHookRetry(
            PendingHookRetry(episodeID: episode.id, attempt: 2, due: Date(timeIntervalSince1970: 0), lastError: "x"))
        let child = try DaemonProcessTests.Child(
            binary,
            ["--state", dir.file("state"), "run", "--once", "--json", "--hook", "echo $EPISODE_GUID >> \(out)"],
            environment: ["XDG_CONFIG_HOME": dir.file("no-config"), "PODCAST_WATCH_CONFIG": ""])
        XCTAssertEqual(child.finish(), 0)
        XCTAssertEqual(contents("out"), "a\n")
        XCTAssertEqual(child.events("new_episode").count, 1)
        XCTAssertEqual(try owed(), [])
    }

    func testAHookRunningAtSIGTERMIsKilledAfterTheGraceAndRunsAgain() throws {
        let out = dir.file("out")
        let pidFile = dir.file("sleeper.pid")
        let first = try start(hook: "echo started >> \(out); sleep 300 & echo $! > \(pidFile); wait")
        XCTAssertTrue(first.wait { self.contents("sleeper.pid").hasSuffix("\n") })
        let sleeper = try XCTUnwrap(Int32(contents("sleeper.pid").trimmingCharacters(in: .whitespacesAndNewlines)))
        let stopped = Date()
        first.signal(SIGTERM)
        XCTAssertEqual(first.finish(), 0)
        // The grace was given (a lower bound only: a loaded machine can only make it longer).
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(stopped), HookRunner.shutdownGrace - 0.5)
        XCTAssertEqual(
            first.stderr,
            "podcast-watch: stopping: waiting up to 5 s for 1 running hook (signal again to kill it now)\n"
                + "podcast-watch: warning: hook for \"Episode a\" was still running at shutdown; killed after the 5 s grace (attempt 1 of 3); it runs again at the next start\n"
        )
        let event = try XCTUnwrap(first.events("hook_failed").first)
        XCTAssertEqual(event["gave_up"] as? Bool, false)
        XCTAssertTrue(event["retry_at"] is NSNull)
        // Its whole group went, the grandchild too (reaped by init shortly after).
        let deadline = Date().addingTimeInterval(20)
        while kill(sleeper, 0) == 0 && Date() < deadline { usleep(5_000) }
        XCTAssertEqual(kill(sleeper, 0), -1)
        XCTAssertEqual(try owed().map(\.attempt), [1])

        let second = try start(hook: "echo again >> \(out)")
        XCTAssertTrue(second.wait { self.contents("out").contains("again") })
        XCTAssertTrue(second.wait { (try? self.owed().isEmpty) == true })
        second.signal(SIGTERM)
        XCTAssertEqual(second.finish(), 0)
        XCTAssertEqual(contents("out"), "started\nagain\n")
    }
}
