import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastFeeds
@testable import PodcastStore

/// A stdout that cannot be written (closed, full, reader gone) is an error: exit status 5, a
/// message on stderr, and nothing counted as announced.
final class OutputFailureTests: XCTestCase {
    var dir: TemporaryDirectory!
    var state: String { dir.file("state") }

    override func setUpWithError() throws {
        dir = TemporaryDirectory("output")
        let items = ["a", "b", "c"].map { "<item><guid>\($0)</guid><title>Episode \($0)</title></item>" }.joined()
        try "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Show</title>\(items)</channel></rss>"
            .write(toFile: dir.file("feed.xml"), atomically: true, encoding: .utf8)
        let added = try BinaryRun.run(["--state", state, "add", dir.file("feed.xml")])
        XCTAssertEqual(added.status, 0, added.stderr)
    }

    override func tearDown() { dir = nil }

    func pending() throws -> [String] {
        try FeedStore(path: state + "/" + StateLocation.databaseName).pendingAnnouncements().compactMap(\.guid).sorted()
    }

    func testRunOnceWithStdoutClosedKeepsTheAnnouncementsPending() throws {
        let run = try BinaryRun.run(["--state", state, "run", "--once"], stdout: .closed)
        XCTAssertEqual(run.status, 5)
        XCTAssertTrue(run.stderr.contains("podcast-watch: cannot write to stdout (Bad file descriptor)"), run.stderr)
        XCTAssertEqual(try pending(), ["a", "b", "c"])
        // A later run that can write announces them (once) and clears them.
        let again = try BinaryRun.run(["--state", state, "run", "--once", "--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout.components(separatedBy: "\"event\":\"new_episode\"").count - 1, 3)
        XCTAssertEqual(try pending(), [])
    }

    func testRunStopsOnABrokenPipeInsteadOfPollingOn() throws {
        // Not --once: without the fix the daemon kept running; now EPIPE stops it.
        let run = try BinaryRun.run(["--state", state, "run", "--json"], stdout: .closedPipe)
        XCTAssertEqual(run.status, 5)
        XCTAssertTrue(run.stderr.contains("cannot write to stdout (Broken pipe); stopping"), run.stderr)
        XCTAssertEqual(try pending(), ["a", "b", "c"])
    }

    func testRunOnceToAFullDiskKeepsTheAnnouncementsPending() throws {
        let run = try BinaryRun.run(["--state", state, "run", "--once", "--json"], stdout: .file("/dev/full"))
        XCTAssertEqual(run.status, 5)
        XCTAssertTrue(run.stderr.contains("(No space left on device)"), run.stderr)
        XCTAssertEqual(try pending(), ["a", "b", "c"])
    }

    func testExportAndListToAFullDiskFail() throws {
        for command in [["export"], ["list"], ["list", "--json"], ["--help"]] {
            let run = try BinaryRun.run(["--state", state] + command, stdout: .file("/dev/full"))
            XCTAssertEqual(run.status, 5, "\(command)")
            XCTAssertEqual(run.stderr, "podcast-watch: cannot write to stdout: No space left on device\n", "\(command)")
        }
        // A reader gone (`list | head`): status 5, quietly.
        let feed = state + "/feed.xml"
        try "<rss version=\"2.0\"><channel><title>T</title></channel></rss>".write(
            toFile: feed, atomically: true, encoding: .utf8)
        for command in [["export"], ["list"], ["show", feed]] {
            let closed = try BinaryRun.run(["--state", state] + command, stdout: .closedPipe)
            XCTAssertEqual(closed.status, 5, "\(command)")
            XCTAssertEqual(closed.stderr, "", "\(command)")
        }
    }
}

/// A write that "succeeds" but whose sync fails (a deferred error on a file, e.g. EIO on NFS)
/// delivers nothing either. In-process, on the main thread (the daemon drives EventLoop.main).
final class OutputSyncFailureTests: XCTestCase {
    func testAFailedSyncOfStdoutKeepsTheAnnouncementsPending() throws {
        let dir = TemporaryDirectory("sync")
        let items = ["a", "b", "c"].map { "<item><guid>\($0)</guid></item>" }.joined()
        try "<rss version=\"2.0\"><channel><title>Show</title>\(items)</channel></rss>"
            .write(toFile: dir.file("feed.xml"), atomically: true, encoding: .utf8)
        let errors = CapturedConsole()
        var console = Console(write: { _ throws(OutputError) in }, err: { s in errors.errText.withLock { $0 += s } })
        console.flush = { () throws(OutputError) in throw OutputError(code: EIO) }
        let runner = CommandRunner(console: console, environment: ["HOME": "/nonexistent"], currentDirectory: dir.path)
        let state = dir.file("state")
        XCTAssertEqual(runner.run(["--state", state, "add", "feed.xml"]), .success)
        XCTAssertEqual(runner.run(["--state", state, "run", "--once"]), .outputError)
        XCTAssertTrue(errors.err.contains("cannot write to stdout (Input/output error); stopping"), errors.err)
        let pending = try FeedStore(path: state + "/" + StateLocation.databaseName).pendingAnnouncements().compactMap(
            \.guid
        ).sorted()
        XCTAssertEqual(pending, ["a", "b", "c"])
        XCTAssertEqual(runner.run(["--state", state, "export"]), .outputError)
    }
}
