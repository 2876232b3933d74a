import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastEngine

/// `systemctl reload` (SIGHUP) re-reads the config file in a running `run`: a changed hook runs from the next episode, a key that needs a restart is named
/// and keeps its running value, and a broken file is refused with its line while `run` goes on.
final class ConfigReloadProcessTests: XCTestCase {
    func testSIGHUPRereadsTheConfigFile() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let dir = TemporaryDirectory("config-reload")
        let config = dir.file("config")
        let log = dir.file("hook.log")
        func write(_ text: String) throws { try text.write(toFile: config, atomically: true, encoding: .utf8) }
        func hookLines() -> [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        server.route("/f", .ok(TestFeeds.rss(["a"])))
        try write("state = state\nhook = echo \"old $EPISODE_GUID\" >> '\(log)'\n")
        let environment = ["PODCAST_WATCH_CONFIG": config]
        XCTAssertEqual(try BinaryRun.run(["add", server.url("/f")], environment: environment).status, 0)
        let child = try DaemonProcessTests.Child(binary, ["run", "--json"], environment: environment)
        XCTAssertTrue(child.wait { hookLines() == ["old a"] })

        // A file that fails to parse: refused with its line, nothing of it taken, run goes on.
        try write("state = state\nhook = echo \"new $EPISODE_GUID\" >> '\(log)'\ninterval = soon\n")
        child.signal(SIGHUP)
        let refused =
            "podcast-watch: config file not reloaded (the running configuration stays): \(config):3: bad value for 'interval': option '--interval' needs a duration such as 900, 15m or 2h (1 s to 30 d), not 'soon'\n"
        XCTAssertTrue(child.wait { child.stderr.contains(refused) }, child.stderr)
        XCTAssertTrue(child.process.isRunning)
        XCTAssertEqual(JournalLines.level(of: Substring(refused.dropLast())), 3)

        // Fixed, with a key that needs a restart: the hook changes now, the listener does not.
        try write("state = state\nhook = echo \"new $EPISODE_GUID\" >> '\(log)'\nhttp = 0\n")
        child.signal(SIGHUP)
        let applied = "podcast-watch: config reloaded from \(config): applied hook\n"
        let restart =
            "podcast-watch: warning: config file: 'http' changed; it takes effect at the next restart (systemctl restart podcast-watch), until then the running value stays\n"
        XCTAssertTrue(child.wait { child.stderr.contains(applied) }, child.stderr)
        XCTAssertTrue(child.stderr.contains(restart), child.stderr)
        XCTAssertFalse(child.stderr.contains("dashboard at"), child.stderr)
        XCTAssertEqual(JournalLines.level(of: Substring(applied.dropLast())), 5)
        XCTAssertEqual(JournalLines.level(of: Substring(restart.dropLast())), 4)

        server.route("/f", .ok(TestFeeds.rss(["a", "b"])))
        child.signal(SIGUSR1)
        XCTAssertTrue(child.wait { hookLines() == ["old a", "new b"] }, "\(hookLines())")
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
    }

    /// `state = ./state/` names the running state folder: a SIGHUP with the file unchanged says
    /// "nothing changed" and no "'state' changed" warning (before, every reload warned).
    func testSIGHUPWithARelativeStateWithTrailingSlashChangesNothing() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let dir = TemporaryDirectory("config-reload-state")
        let config = dir.file("config")
        let log = dir.file("hook.log")
        server.route("/f", .ok(TestFeeds.rss(["a"])))
        try "state = ./state/\nhook = echo \"$EPISODE_GUID\" >> '\(log)'\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let environment = ["PODCAST_WATCH_CONFIG": config]
        XCTAssertEqual(try BinaryRun.run(["add", server.url("/f")], environment: environment).status, 0)
        let child = try DaemonProcessTests.Child(binary, ["run", "--json"], environment: environment)
        XCTAssertTrue(child.wait { FileManager.default.fileExists(atPath: log) })
        child.signal(SIGHUP)
        let nothing = "podcast-watch: config reloaded from \(config): nothing changed\n"
        XCTAssertTrue(child.wait { child.stderr.contains(nothing) }, child.stderr)
        XCTAssertFalse(child.stderr.contains("'state' changed"), child.stderr)
        // Only a key that needs a restart changed: still a summary line.
        try "state = ./state/\nhook = echo \"$EPISODE_GUID\" >> '\(log)'\nhttp = 0\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        child.signal(SIGHUP)
        let restartOnly = "podcast-watch: config reloaded from \(config): nothing applied (restart needed for http)\n"
        XCTAssertTrue(child.wait { child.stderr.contains(restartOnly) }, child.stderr)
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
    }
}
