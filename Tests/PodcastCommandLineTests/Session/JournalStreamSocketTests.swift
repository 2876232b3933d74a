import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastFeeds

#if canImport(Glibc)
import Glibc
#endif

/// stderr connected to a journal stream as systemd connects it: a unix
/// stream socket (one end of a `socketpair`, standing in for journald's stdout socket) whose
/// device and inode `JOURNAL_STREAM` names. Every line that arrives carries its level prefix:
/// the daemon's own, and a hook's stdout (`<6>`) and stderr (`<4>`) through the relay.
final class JournalStreamSocketTests: XCTestCase {
    func testEveryLineOnTheJournalSocketIsLevelPrefixed() throws {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let dir = TemporaryDirectory("journal-socket")
        let feed = dir.file("feed.xml")
        try TestFeeds.rss(["a"]).write(toFile: feed, atomically: true, encoding: .utf8)
        XCTAssertEqual(try BinaryRun.run(["--state", dir.file("state"), "add", feed]).status, 0)

        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw XCTSkip("no AF_UNIX socketpair: errno \(errno)")
        }
        defer { close(pair[0]) }
        var info = stat()
        XCTAssertEqual(fstat(pair[1], &info), 0)
        let stream = "\(info.st_dev):\(info.st_ino)"

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--state", dir.file("state"), "run", "--once", "--json", "--hook-retries", "0", "--hook",
            "echo \"out $EPISODE_GUID\"; echo 'err' >&2; exit 3",
        ]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "JOURNAL_STREAM": stream, "PODCAST_WATCH_CONFIG": "/dev/null",
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: pair[1], closeOnDealloc: false)
        try process.run()
        close(pair[1])  // the child has its copy: end of stream comes when it (and its relay) closes

        // Read to end of stream (the daemon and its hook relay closed it), 20 s at most.
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(20)
        var pfd = pollfd(fd: pair[0], events: Int16(POLLIN), revents: 0)
        while Date() < deadline {
            guard poll(&pfd, 1, 100) > 0 else { continue }
            let n = recv(pair[0], &buffer, buffer.count, 0)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertFalse(lines.isEmpty)
        for line in lines { XCTAssertNotNil(line.wholeMatch(of: /<[3-7]>.+/), "not level-prefixed: \(line)") }
        XCTAssertTrue(lines.contains("<6>out a"), text)
        XCTAssertTrue(lines.contains("<4>err"), text)
        XCTAssertTrue(lines.contains("<3>podcast-watch: hook exited with status 3 for \"Episode a\""), text)
    }
}
