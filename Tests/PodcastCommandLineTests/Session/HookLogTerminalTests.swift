import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

/// `run --hook` on a terminal: the hooks' output goes to a log, not the table.
final class HookLogTerminalTests: XCTestCase {
    /// While the live table is on, hooks write to hooks.log in the state directory, not to the
    /// terminal the table redraws.
    func testHookOutputGoesToTheLogWhileTheTableIsOn() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("hooklog")
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--state", dir.path, "run", "--hook", "echo said-on-stdout; echo said-on-stderr >&2"]
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        let log = dir.file("hooks.log")
        var seen = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(20)
        func logText() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        while !logText().contains("said-on-stderr") && Date() < deadline {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 50) > 0 {
                let n = read(master, &buffer, buffer.count)
                if n > 0 { seen += String(decoding: buffer[..<n], as: UTF8.self) }
            }
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let lines = logText().split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(
            lines.first?.hasSuffix(" hook for \"Episode a\" (file://\(feed)), attempt 1") ?? false, "\(lines)")
        XCTAssertEqual(Array(lines.dropFirst()), ["said-on-stdout", "said-on-stderr"])
        XCTAssertFalse(seen.contains("said-on"), "hook output reached the terminal")
    }
}
