import Foundation
import PodcastTestSupport
import XCTest

/// Two daemons on one --state: the second is refused (status 6); read-only commands still run.
final class StateLockTests: XCTestCase {
    func testASecondRunOnTheSameStateIsRefused() throws {
        let dir = TemporaryDirectory("lock")
        let state = dir.file("state")
        try
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Show</title><item><guid>a</guid></item></channel></rss>"
            .write(toFile: dir.file("feed.xml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try BinaryRun.run(["--state", state, "add", dir.file("feed.xml")]).status, 0)

        let first = try DaemonProcessTests.Child(try BinaryRun.binary(), ["--state", state, "run", "--json"])
        defer {
            first.signal(SIGTERM)
            _ = first.finish()
        }
        // Once it announced, it holds the lock (taken before the store is opened).
        XCTAssertTrue(first.wait { first.events("new_episode").count == 1 })

        let second = try BinaryRun.run(["--state", state, "run", "--once"])
        XCTAssertEqual(second.status, 6)
        XCTAssertEqual(
            second.stderr,
            "podcast-watch: --state \(state) is in use by another 'podcast-watch run' (\(state)/podcast-watch.lock is locked); stop it first\n"
        )
        let list = try BinaryRun.run(["--state", state, "list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout.split(separator: "\n").count, 1)

        first.signal(SIGTERM)
        XCTAssertEqual(first.finish(), 0)
        // The lock went with the process.
        XCTAssertEqual(try BinaryRun.run(["--state", state, "run", "--once"]).status, 0)
    }
}
