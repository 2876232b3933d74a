import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine

/// SIGHUP/SIGUSR1 in a daemon's first 10–20 ms killed it (their handlers were
/// not installed yet); deleting `podcast-watch.lock` let a second `run` start on the same state.
final class StartupSignalTests: XCTestCase {
    func makeState() throws -> (TemporaryDirectory, String) {
        let dir = TemporaryDirectory("startup")
        let state = dir.file("state")
        try TestFeeds.rss(["a"]).write(toFile: dir.file("feed.xml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try BinaryRun.run(["--state", state, "add", dir.file("feed.xml")]).status, 0)
        return (dir, state)
    }

    /// What `/proc/PID/status` showed first for `signals`: all blocked (the start-up window), or
    /// all caught and no longer blocked (the window passed before we looked); nil after 5 s.
    enum StartupState { case blocked, handled }

    static func waitForStartup(pid: Int32, signals: [Int32]) -> StartupState? {
        let deadline = Date().addingTimeInterval(5)
        let wanted = signals.reduce(UInt64(0)) { $0 | (UInt64(1) << UInt64($1 - 1)) }
        func mask(_ field: String, in status: String) -> UInt64? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return nil }
            return UInt64(line.dropFirst(field.count).trimmingCharacters(in: .whitespaces), radix: 16)
        }
        while Date() < deadline {
            if let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let blocked = mask("SigBlk:", in: status), let caught = mask("SigCgt:", in: status)
            {
                if blocked & wanted == wanted { return .blocked }
                if caught & wanted == wanted { return .handled }
            }
            usleep(200)
        }
        return nil
    }

    func testSignalsAtStartupDoNotKillTheDaemon() throws {
        for signal in [SIGHUP, SIGUSR1, SIGHUP] {
            // On a loaded machine the child may pass its start-up window before we look: then
            // start another, up to 20 times; the signal must land inside the window once.
            var hitTheWindow = false
            for _ in 0..<20 where !hitTheWindow {
                let (dir, state) = try makeState()  // a first sync: the daemon has output to give
                defer { withExtendedLifetime(dir) {} }
                let child = try DaemonProcessTests.Child(try BinaryRun.binary(), ["--state", state, "run", "--json"])
                // As soon as the child's main runs (it blocks the signals first thing), long before
                // its handlers exist: the window in which a SIGHUP used to kill it. (Before main, the
                // dynamic loader runs: no process can catch a signal there.)
                let seen = Self.waitForStartup(pid: child.process.processIdentifier, signals: [SIGHUP, SIGUSR1])
                XCTAssertNotNil(seen, "the daemon neither held nor handled SIGHUP/SIGUSR1 while starting")
                hitTheWindow = seen == .blocked
                if hitTheWindow { child.signal(signal) }
                XCTAssertTrue(child.wait { !child.lines.isEmpty || !child.process.isRunning }, "no output")
                XCTAssertTrue(child.process.isRunning, "killed by signal \(signal) while starting: \(child.stderr)")
                child.signal(SIGTERM)
                XCTAssertEqual(child.finish(), 0)
                XCTAssertEqual(child.process.terminationReason, .exit)
                if seen == nil { break }
            }
            XCTAssertTrue(hitTheWindow, "never saw the daemon holding SIGHUP/SIGUSR1 while starting")
        }
    }

    func testDeletingTheLockFileDoesNotLetASecondRunIn() throws {
        let (dir, state) = try makeState()
        let first = try DaemonProcessTests.Child(try BinaryRun.binary(), ["--state", state, "run", "--json"])
        defer {
            first.signal(SIGTERM)
            _ = first.finish()
        }
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
