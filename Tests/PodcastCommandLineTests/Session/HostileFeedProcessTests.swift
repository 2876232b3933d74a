import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine

/// End to end: the built binary polls a hostile feed (one element with 200,000
/// attributes: libxml2 spent 36 s in it on the loop thread, and SIGTERM waited for it) and
/// answers SIGTERM at once, refusing the document with a clear error.
final class HostileFeedProcessTests: XCTestCase {
    func testSIGTERMIsAnsweredPromptlyWhileAHostileFeedIsPolled() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("hostile-process")
        let hostile = dir.file("hostile.xml")
        try Data(TestFeeds.element(attributes: 200_000)).write(to: URL(fileURLWithPath: hostile))
        let healthy = dir.file("healthy.xml")
        try Data(TestFeeds.rss(["h1"]).utf8).write(to: URL(fileURLWithPath: healthy))
        let state = dir.file("state")
        for feed in [hostile, healthy, hostile + ".copy"] {
            if feed.hasSuffix(".copy") { try FileManager.default.copyItem(atPath: hostile, toPath: feed) }
            let captured = CapturedConsole()
            XCTAssertEqual(
                CommandRunner(console: captured.console(), environment: [:], currentDirectory: dir.path).run([
                    "--state", state, "add", "--no-check", feed,
                ]), .success)
        }
        let child = try DaemonProcessTests.Child(binary, ["--state", state, "run", "--json"])
        // Every feed polled: the hostile ones refused, the healthy one read.
        XCTAssertTrue(
            child.wait { child.events("feed_error").count == 2 && child.events("feed_updated").count == 1 },
            child.stdout + child.stderr)
        for error in child.events("feed_error") {
            XCTAssertEqual(error["error"] as? String, "refused: an element has more than 256 attributes")
        }
        // A loop still parsing the hostile feeds could not take the signal: `finish()` would give
        // nil. How soon it answers is the loop's promise (WorkerPoolTests, by order, and make bench),
        // not a figure to assert in real time here.
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0, child.stderr)
    }
}

extension HostileFeedProcessTests {
    /// A feed file swapped for a FIFO after `add`: the poll refuses it at once instead of
    /// blocking in `open` (before, `run --once` hung there, deaf to signals).
    func testAFeedFileSwappedForAFIFOFailsItsPollPromptly() throws {
        let dir = TemporaryDirectory("swap-fifo")
        let feed = dir.file("feed.xml")
        try Data(TestFeeds.rss(["a"]).utf8).write(to: URL(fileURLWithPath: feed))
        let state = dir.file("state")
        XCTAssertEqual(try BinaryRun.run(["--state", state, "add", feed]).status, 0)
        XCTAssertEqual(unlink(feed), 0)
        XCTAssertEqual(mkfifo(feed, 0o600), 0)
        let run = try BinaryRun.run(["--state", state, "run", "--once", "--json"])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(
            run.stderr, "podcast-watch: feed failed: Show <file://\(feed)>: \(feed) is a FIFO, not a regular file\n")
    }
}
