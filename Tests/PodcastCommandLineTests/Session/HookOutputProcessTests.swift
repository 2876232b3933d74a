import Foundation
import PodcastTestSupport
import XCTest

/// `run` without a hook log, as a child process: the hook's output reaches our stderr
/// neutralised (its escape sequence shown as `␛`), and a `--once` run's last hook lines are
/// written before it exits.
final class HookOutputProcessTests: XCTestCase {
    func testHookOutputIsNeutralisedAndNotLostAtExit() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("hook-output")
        let feed = dir.file("feed.xml")
        try TestFeeds.rss(["a"]).write(toFile: feed, atomically: true, encoding: .utf8)
        _ = try BinaryRun.run(["--state", dir.file("state"), "add", feed])
        let run = try DaemonProcessTests.Child(
            binary,
            [
                "--state", dir.file("state"), "run", "--once", "--json", "--hook-retries", "0", "--hook",
                "printf 'out \\033[31mred\\n'; printf 'err\\n' >&2",
            ],
            environment: ["PODCAST_WATCH_CONFIG": "/dev/null"])
        XCTAssertEqual(run.finish(), 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("\u{1B}"), run.stderr)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("out ␛[31mred"), run.stderr)
        XCTAssertTrue(lines.contains("err"), run.stderr)
    }
}
