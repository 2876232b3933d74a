import Foundation
import XCTest
@testable import PodcastKit

/// Issue 9 item 10: SIGHUP/SIGUSR1 in a daemon's first 10–20 ms killed it (their handlers were
/// not installed yet); deleting `podcast-watch.lock` let a second `run` start on the same state.
final class StartupSignalTests: XCTestCase {
    func makeState() throws -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory("startup")
        let state = dir.file("state")
        try DaemonProcessTests.rss(["a"]).write(toFile: dir.file("feed.xml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try BinaryRun.run(["--state", state, "add", dir.file("feed.xml")]).status, 0)
        return (dir, state)
    }

    /// Polls `/proc/PID/status` until its blocked-signal mask holds every one of `signals` (5 s at most).
    static func waitUntilBlocked(pid: Int32, signals: [Int32]) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        let wanted = signals.reduce(UInt64(0)) { $0 | (UInt64(1) << UInt64($1 - 1)) }
        while Date() < deadline {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                let mask = UInt64(line.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16),
                mask & wanted == wanted
            {
                return true
            }
            usleep(200)
        }
        return false
    }

    func testSignalsAtStartupDoNotKillTheDaemon() throws {
        for signal in [SIGHUP, SIGUSR1, SIGHUP] {
            let (dir, state) = try makeState()  // a first sync: the daemon has output to give
            defer { withExtendedLifetime(dir) {} }
            let child = try DaemonProcessTests.Child(try BinaryRun.binary(), ["--state", state, "run", "--json"])
            // As soon as the child's main runs (it blocks the signals first thing), long before
            // its handlers exist: the window in which a SIGHUP used to kill it. (Before main, the
            // dynamic loader runs: no process can catch a signal there.)
            XCTAssertTrue(Self.waitUntilBlocked(pid: child.process.processIdentifier, signals: [SIGHUP, SIGUSR1]),
                          "the daemon never held SIGHUP/SIGUSR1 while starting")
            child.signal(signal)
            XCTAssertTrue(child.wait { !child.lines.isEmpty || !child.process.isRunning }, "no output")
            XCTAssertTrue(child.process.isRunning, "killed by signal \(signal) while starting: \(child.stderr)")
            child.signal(SIGTERM)
            XCTAssertEqual(child.finish(), 0)
            XCTAssertEqual(child.process.terminationReason, .exit)
        }
    }

    func testDeletingTheLockFileDoesNotLetASecondRunIn() throws {
        let (dir, state) = try makeState()
        let first = try DaemonProcessTests.Child(try BinaryRun.binary(), ["--state", state, "run", "--json"])
        defer { first.signal(SIGTERM); _ = first.finish() }
        XCTAssertTrue(first.wait { first.events("new_episode").count == 1 })
        XCTAssertEqual(unlink(state + "/" + StateLock.fileName), 0)
        let second = try BinaryRun.run(["--state", state, "run", "--once"])
        XCTAssertEqual(second.status, 6, second.stderr)
        first.signal(SIGTERM)
        XCTAssertEqual(first.finish(), 0)
        XCTAssertEqual(try BinaryRun.run(["--state", state, "run", "--once"]).status, 0)
        withExtendedLifetime(dir) {}
    }
}
