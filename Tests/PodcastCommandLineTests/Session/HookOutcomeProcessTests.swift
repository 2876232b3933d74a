import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastFeeds

/// The built binary: a failing or hung hook is reported, recorded on its feed and shown by
/// `list` until a later run succeeds.
final class HookOutcomeProcessTests: XCTestCase {
    func testFailingAndHungHooksAreRecordedAndListed() throws {
        let dir = TemporaryDirectory("hook-outcome")
        let feed = dir.file("feed.xml")
        try TestFeeds.rss(["a"]).write(toFile: feed, atomically: true, encoding: .utf8)
        let state = dir.file("state")
        _ = try BinaryRun.run(["--state", state, "add", feed, "--title", "Show"])

        // A hook killed at its timeout (1 s for a 30 s sleep; nothing depends on speed).
        let hung = try BinaryRun.run([
            "--state", state, "run", "--once", "--json", "--hook", "sleep 30", "--hook-timeout", "1", "--hook-retries",
            "0",
        ])
        XCTAssertEqual(hung.status, 0)  // the poll succeeded; the hook's failure is reported, not fatal
        XCTAssertEqual(hung.stderr, "podcast-watch: hook timed out after 1 s and was killed for \"Episode a\"\n")
        let listed = try BinaryRun.run(["--state", state, "list"])
        XCTAssertTrue(
            listed.stdout.hasSuffix("    hook failing: timed out after 1 s and was killed for \"Episode a\"\n"),
            listed.stdout)
        let json = try BinaryRun.run(["--state", state, "list", "--json"])
        XCTAssertTrue(
            json.stdout.hasSuffix(
                ",\"enabled\":true,\"hook_error\":\"timed out after 1 s and was killed for \\\"Episode a\\\"\"}\n"),
            json.stdout)

        // A new episode whose hook succeeds clears it.
        try TestFeeds.rss(["a", "b"]).write(toFile: feed, atomically: true, encoding: .utf8)
        let ok = try BinaryRun.run(["--state", state, "run", "--once", "--json", "--hook", "true"])
        XCTAssertEqual(ok.stderr, "")
        XCTAssertFalse(try BinaryRun.run(["--state", state, "list"]).stdout.contains("hook failing"))
    }

    func testHookOptionsNeedAHook() {
        XCTAssertThrowsError(try CommandLineParser.parse(["run", "--hook-timeout", "5"]))
        XCTAssertThrowsError(try CommandLineParser.parse(["run", "--hook", "x", "--hook-retries", "11"]))
        XCTAssertThrowsError(try CommandLineParser.parse(["run", "--hook", "x", "--hook-timeout", "0"]))
        guard
            case .run(let options) = try? CommandLineParser.parse([
                "run", "--hook", "x", "--hook-timeout", "2m", "--hook-retries", "0", "--hook-log", "h.log",
            ]).command
        else { return XCTFail("not a run") }
        XCTAssertEqual(options.hookTimeoutSeconds, 120)
        XCTAssertEqual(options.hookRetries, 0)
        XCTAssertEqual(options.hookLog, "h.log")
        XCTAssertEqual(RunOptions().hookTimeoutSeconds, 600)
        XCTAssertEqual(RunOptions().hookRetries, 3)
    }
}
