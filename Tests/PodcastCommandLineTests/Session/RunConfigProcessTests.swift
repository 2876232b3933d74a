import Foundation
import PodcastTestSupport
import XCTest

/// The config file as `run` uses it: its state directory and hook apply, and a
/// command-line option wins over the file.
final class RunConfigProcessTests: XCTestCase {
    func testRunTakesTheFileAndFlagsWin() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("config-run")
        let feed = dir.file("feed.xml")
        try TestFeeds.rss(["a"]).write(toFile: feed, atomically: true, encoding: .utf8)
        _ = try BinaryRun.run(["--state", dir.file("from-file"), "add", feed])
        try """
        # relative to this file
        state = from-file
        hook = echo file-hook >> \(dir.file("hook.out"))
        hook-retries = 0
        """.write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let env = ["PODCAST_WATCH_CONFIG": dir.file("config")]

        let first = try DaemonProcessTests.Child(binary, ["run", "--once", "--json"], environment: env)
        XCTAssertEqual(first.finish(), 0)
        XCTAssertEqual(first.events("new_episode").count, 1)
        XCTAssertEqual(try String(contentsOfFile: dir.file("hook.out"), encoding: .utf8), "file-hook\n")

        // --hook on the command line replaces the file's.
        try TestFeeds.rss(["a", "b"]).write(toFile: feed, atomically: true, encoding: .utf8)
        // A later modification time, as a real edit would have (Last-Modified has 1 s resolution).
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: feed)
        let second = try DaemonProcessTests.Child(
            binary, ["run", "--once", "--json", "--hook", "echo flag-hook >> \(dir.file("hook.out"))"], environment: env
        )
        XCTAssertEqual(second.finish(), 0)
        XCTAssertEqual(try String(contentsOfFile: dir.file("hook.out"), encoding: .utf8), "file-hook\nflag-hook\n")

        // A bad line: exit 2 naming it, nothing polled.
        try "interval = 15m\nhook-retries = many\n".write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let bad = try DaemonProcessTests.Child(binary, ["run", "--once", "--json"], environment: env)
        XCTAssertEqual(bad.finish(), 2)
        XCTAssertEqual(
            bad.stderr,
            "podcast-watch: \(dir.file("config")):2: bad value for 'hook-retries': option '--hook-retries' needs a whole number from 0 to 10, not 'many'\n"
        )
        XCTAssertEqual(bad.stdout, "")
    }

    /// A hook log in a folder that does not exist is a usage error (exit 2, which the units
    /// do not restart on), naming the path; it was exit 3, a restart loop under systemd. The
    /// folder is not created. `PODCAST_WATCH_CONFIG=/dev/null`: no config file.
    func testHookLogInAMissingFolderIsAUsageError() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("hook-log-missing")
        let log = dir.file("no-such-folder/hooks.log")
        let run = try DaemonProcessTests.Child(
            binary, ["--state", dir.file("state"), "run", "--once", "--json", "--hook", "true", "--hook-log", log],
            environment: ["PODCAST_WATCH_CONFIG": "/dev/null"])
        XCTAssertEqual(run.finish(), 2)
        XCTAssertEqual(
            run.stderr,
            "podcast-watch: cannot open the hook log \(log): No such file or directory (its folder must exist)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("no-such-folder")))
    }
}
