import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastEngine

/// A failed download is a warning on stderr, not only a `download_failed` JSON line on stdout
/// (`journalctl -p warning` showed nothing), and `run --once` exits 1 when a download failed,
/// as it does for a failed feed.
final class DownloadFailureLogProcessTests: XCTestCase {
    func testAFailedDownloadIsAWarningAndOnceExitsOne() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route("/ep.mp3", .status(404, "gone"))
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Lost Show</title><item><guid>l1</guid><title>Missing</title><enclosure url=\"\(server.url("/ep.mp3"))\" type=\"audio/mpeg\"/></item></channel></rss>"
            ))
        let dir = TemporaryDirectory("dl-fail-log")
        let state = dir.file("state")
        XCTAssertEqual(
            CommandRunner(console: CapturedConsole().console()).run(["--state", state, "add", server.url("/feed.xml")]),
            .success)
        let run = try DaemonProcessTests.Child(
            binary, ["--state", state, "run", "--once", "--json", "--download", dir.file("media")],
            environment: ["PODCAST_WATCH_CONFIG": "/dev/null"])
        XCTAssertEqual(run.finish(), 1, run.stderr)
        let failed = run.events("download_failed")
        XCTAssertEqual(failed.count, 1)
        let error = try XCTUnwrap(failed.first?["error"] as? String)
        let lines = run.stderr.split(separator: "\n").filter { $0.contains("download of") }
        XCTAssertEqual(lines.count, 1, run.stderr)
        let line = try XCTUnwrap(lines.first)
        XCTAssertTrue(
            line.hasPrefix(
                "podcast-watch: warning: download of \"Lost Show — Missing\" failed: \(error) (attempt 1; retrying at "),
            String(line))
        XCTAssertEqual(JournalLines.level(of: line), 4)
    }
}
