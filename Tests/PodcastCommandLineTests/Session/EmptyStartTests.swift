import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore

/// `run` with no subscriptions and no terminal: says how to add one on stderr, keeps
/// running, and polls what a later SIGHUP finds.
final class EmptyStartTests: XCTestCase {
    var server: TestHTTPServer!
    var dir: TemporaryDirectory!

    override func setUpWithError() throws {
        server = try TestHTTPServer()
        dir = TemporaryDirectory("empty-start")
    }

    override func tearDown() {
        server.stop()
        dir = nil
    }

    func start(_ arguments: String...) throws -> DaemonProcessTests.Child {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        return try DaemonProcessTests.Child(binary, ["--state", dir.path] + arguments)
    }

    @discardableResult
    func withStore<T>(_ body: (FeedStore) throws -> T) throws -> T {
        try body(try FeedStore(path: dir.file(StateLocation.databaseName)))
    }

    func testEmptyRunExplainsAndPicksUpFeedsOnSIGHUP() throws {
        server.route("/f", .ok(TestFeeds.rss(["a", "b"])))
        let child = try start("run", "--json")
        XCTAssertTrue(child.wait { child.stderr.contains("\n") })
        XCTAssertEqual(
            child.stderr,
            "podcast-watch: no subscriptions yet; add one with 'podcast-watch add URL', then send SIGHUP (kill -HUP \(child.process.processIdentifier)) to poll it\n"
        )
        XCTAssertTrue(child.process.isRunning)
        try withStore { try $0.add(url: server.url("/f")) }
        child.signal(SIGHUP)
        XCTAssertTrue(child.wait { child.events("feed_updated").count == 1 })
        XCTAssertEqual(Set(child.events("new_episode").compactMap { $0["episode_guid"] as? String }), ["a", "b"])
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
    }

    /// `--once` with nothing to poll ends at once with status 0 (nothing failed), and says so on
    /// stderr: it used to end silently, like a successful pass.
    func testEmptyOnceSaysSoAndExitsZero() throws {
        let child = try start("run", "--once", "--json")
        XCTAssertEqual(child.finish(), 0)
        XCTAssertEqual(
            child.stderr, "podcast-watch: no subscriptions yet, nothing to poll; add one with 'podcast-watch add URL'\n"
        )
        XCTAssertEqual(child.stdout, "")
        XCTAssertEqual(JournalLines.level(of: Substring(child.stderr.dropLast())), 5)
    }

    /// Under a service manager the hint names systemctl reload.
    func testServiceHintNamesSystemctlReload() {
        XCTAssertEqual(
            DaemonSession.emptyHint(once: false, service: true, pid: 42),
            "podcast-watch: no subscriptions yet; add one with 'podcast-watch add URL', then send SIGHUP (systemctl reload podcast-watch (--user for a user unit)) to poll it\n"
        )
    }
}
