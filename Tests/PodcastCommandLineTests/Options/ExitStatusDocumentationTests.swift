import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastFeeds

/// Every exit status the manual (docs/PODCAST-WATCH.md) documents, run as a user would (the built binary): each case
/// the manual names exits with the status it promises, and every status in the manual's list
/// has a case here (or, for the few that need a signal or an internal failure, a named test
/// elsewhere). Found by a fresh user: `show /tmp` exited 1 where the manual says 4.
final class ExitStatusDocumentationTests: XCTestCase {
    struct Case {
        var name: String
        var arguments: [String]
        var status: ExitCode
    }

    /// Statuses the manual lists that are checked elsewhere: 70 cannot be provoked from outside
    /// (the event loop failing); 130 / 143 need a signal mid-pass
    /// (`DaemonProcessTests.testOnceInterruptedBeforeEveryFeedWasPolledExitsWithTheSignalStatus`);
    /// 7 needs a port held open (`DaemonProcessTests.testRunHTTPOnAPortInUseExitsWithStatus7`).
    static let checkedElsewhere: Set<Int32> = [7, 70, 130, 143]

    /// The numbers in the manual's "Exit status:" paragraph.
    static func documentedStatuses() throws -> Set<Int32> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("docs/PODCAST-WATCH.md"), encoding: .utf8)
        let start = try XCTUnwrap(readme.range(of: "Exit status: "))
        let paragraph = readme[start.upperBound...].prefix { _ in true }.components(separatedBy: "\n\n")[0]
        var statuses: Set<Int32> = []
        // "0 success · 1 a feed failed … · 130 / 143 …": a number at the start or after a '·'.
        for part in ("·" + paragraph).components(separatedBy: "·").dropFirst() {
            let head = part.drop { $0.isWhitespace }.prefix { $0.isNumber || $0 == " " || $0 == "/" }
            for number in head.split(whereSeparator: { $0 == " " || $0 == "/" }) {
                if let n = Int32(number) { statuses.insert(n) }
            }
        }
        return statuses
    }

    func testEveryDocumentedStatusIsWhatTheCaseExitsWith() throws {
        let binary = try BinaryRun.binary()
        let dir = TemporaryDirectory("exit-status")
        let state = dir.file("state")
        let feed = dir.file("feed.xml")
        try TestFeeds.rss(["a"]).write(toFile: feed, atomically: true, encoding: .utf8)
        let html = dir.file("page.html")
        try "<html><body>not a feed</body></html>".write(toFile: html, atomically: true, encoding: .utf8)
        let plainFile = dir.file("plain")
        try "x".write(toFile: plainFile, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("folder"), withIntermediateDirectories: true)
        let failingState = dir.file("failing-state")
        _ = try BinaryRun.run(["--state", state, "add", feed])
        _ = try BinaryRun.run(["--state", failingState, "add", "--no-check", html])

        let cases = [
            Case(name: "list", arguments: ["--state", state, "list"], status: .success),
            Case(
                name: "set of no such feed", arguments: ["--state", state, "set", "--id", "99", "--download"],
                status: .feedFailed),
            Case(
                name: "run --once, a feed failed", arguments: ["--state", failingState, "run", "--once"],
                status: .feedFailed),
            Case(name: "show of a document that is not a feed", arguments: ["show", html], status: .feedFailed),
            Case(
                name: "remove of no such feed", arguments: ["--state", state, "remove", "--id", "99"],
                status: .feedFailed),
            Case(
                name: "add of a feed already subscribed", arguments: ["--state", state, "add", feed],
                status: .feedFailed),
            Case(name: "usage error", arguments: ["list", "--bogus"], status: .usage),
            Case(
                name: "--id twice", arguments: ["--state", state, "enable", "--id", "1", "--id", "5"], status: .usage),
            Case(name: "state directory is a file", arguments: ["--state", plainFile, "list"], status: .stateError),
            Case(
                name: "import of a missing file", arguments: ["--state", state, "import", dir.file("no.opml")],
                status: .inputError),
            Case(
                name: "import of a file that is not OPML", arguments: ["--state", state, "import", html],
                status: .inputError),
            Case(name: "show of a missing file", arguments: ["show", dir.file("missing.xml")], status: .inputError),
            Case(name: "show of a directory", arguments: ["show", dir.file("folder")], status: .inputError),
            Case(
                name: "add of a directory", arguments: ["--state", state, "add", dir.file("folder")],
                status: .inputError),
            Case(
                name: "add of a document that is not a feed", arguments: ["--state", state, "add", html],
                status: .notAFeed),
        ]
        // Isolated from the tester's own config file.
        let environment = ["XDG_CONFIG_HOME": dir.file("no-config"), "PODCAST_WATCH_CONFIG": ""]
        var covered: Set<Int32> = []
        for c in cases {
            let child = try DaemonProcessTests.Child(binary, c.arguments, environment: environment)
            XCTAssertEqual(child.finish(), c.status.rawValue, "\(c.name): \(child.stderr)")
            covered.insert(c.status.rawValue)
        }
        // 5: stdout closed.
        XCTAssertEqual(
            try BinaryRun.run(["--state", state, "list"], stdout: .closed).status, ExitCode.outputError.rawValue)
        covered.insert(ExitCode.outputError.rawValue)
        // 6: another run holds the state directory.
        guard case .acquired(let lock) = StateLock.acquire(directory: state) else { return XCTFail("cannot lock") }
        let locked = try DaemonProcessTests.Child(
            binary, ["--state", state, "run", "--once"], environment: environment)
        XCTAssertEqual(locked.finish(), ExitCode.stateLocked.rawValue, locked.stderr)
        withExtendedLifetime(lock) {}
        covered.insert(ExitCode.stateLocked.rawValue)

        let documented = try Self.documentedStatuses()
        XCTAssertEqual(documented, covered.union(Self.checkedElsewhere))
        XCTAssertEqual(
            Self.checkedElsewhere,
            [
                ExitCode.addressUnavailable.rawValue, ExitCode.internalError.rawValue, ExitCode.interrupted.rawValue,
                ExitCode.terminated.rawValue,
            ])
    }
}
