import Foundation
import LoopScheduler
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine

#if canImport(Glibc)
import Glibc
#endif

/// A `run` killed by SIGKILL must not leave the shell's terminal non-blocking: the
/// daemon sets O_NONBLOCK on a description of its own, never on the one it shares.
final class TerminalFlagsAfterKillTests: XCTestCase {
    /// A child `run` on a pseudo-terminal (the test holds the same open file description as the
    /// child's stdout, as a shell does), killed once it drew its table: the shared description's
    /// flags are unchanged.
    func testSIGKILLedRunLeavesTheSharedTerminalBlocking() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("ttyflags")
        let feed = dir.file("feed.xml")
        try TestFeeds.rss(["a"]).write(toFile: feed, atomically: true, encoding: .utf8)
        let captured = CapturedConsole()
        XCTAssertEqual(
            CommandRunner(console: captured.console(), environment: ["HOME": "/nonexistent-home"]).run([
                "--state", dir.path, "add", feed,
            ]), .success)

        let (master, slave) = try openPseudoTerminal()
        defer {
            close(master)
            close(slave)
        }
        let before = fcntl(slave, F_GETFL)
        XCTAssertEqual(before & O_NONBLOCK, 0)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--state", dir.path, "run"]
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardOutput = terminal  // the very description this test holds
        process.standardError = terminal
        try process.run()
        // Wait for the table (its feed line): the child's output is set up by then.
        var seen = ""
        let deadline = Date().addingTimeInterval(20)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !seen.contains("feed.xml") && !seen.contains("Show") && Date() < deadline {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) > 0 {
                let n = read(master, &buffer, buffer.count)
                if n > 0 { seen += String(decoding: buffer[..<n], as: UTF8.self) }
            }
        }
        XCTAssertTrue(seen.contains("Show") || seen.contains("feed.xml"), "no table drawn: \(seen.debugDescription)")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        let after = fcntl(slave, F_GETFL)
        XCTAssertEqual(after & O_NONBLOCK, 0, "the shell's terminal was left non-blocking")
        XCTAssertEqual(after, before)
    }

    /// In process: the queue writes through its own description; the caller's stays blocking,
    /// also while the queue is open.
    func testOutputQueueReopensATerminalOrPipe() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let loop = try EventLoop()
        let output = NonBlockingOutput(fd: fds[1], loop: loop, bound: 1024)
        XCTAssertTrue(output.usesOwnDescription)
        XCTAssertEqual(fcntl(fds[1], F_GETFL) & O_NONBLOCK, 0)
        try output.enqueue("hello\n")
        var buffer = [UInt8](repeating: 0, count: 16)
        XCTAssertEqual(read(fds[0], &buffer, 16), 6)
        XCTAssertEqual(String(decoding: buffer[..<6], as: UTF8.self), "hello\n")
        output.close()
        output.close()  // idempotent: never closes a reused descriptor number
        XCTAssertEqual(fcntl(fds[1], F_GETFL) & O_NONBLOCK, 0)
    }
}
