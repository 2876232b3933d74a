import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Synchronization
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine

/// A FIFO, a device or a directory is no feed file. `add` and `import`
/// refuse them, and a poll refuses one swapped in later without blocking in `open` or `read`.
@Suite(.serialized) struct LocalFileRefusalTests {
    let dir = TemporaryDirectory("refusal")

    func fifo() throws -> String {
        let path = dir.file("feed.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func pollRefusesAFIFOWithoutBlocking() throws {
        let path = try fifo()
        // Without O_NONBLOCK, open() waits for a writer. Order, not time: the writer opens the
        // FIFO only if the read has not returned within 10 s (a regression then fails instead
        // of hanging the suite); a read that does not wait returns first and releases it.
        let readReturned = DispatchSemaphore(value: 0)
        let writerHadToOpen = Mutex(false)
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            if readReturned.wait(timeout: .now() + 10) == .timedOut {
                writerHadToOpen.withLock { $0 = true }
                let fd = open(path, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
            writerDone.signal()
        }
        writer.start()
        let result = FileFetch.read(path: path, request: FetchRequest(url: path))
        readReturned.signal()
        writerDone.wait()
        #expect(writerHadToOpen.withLock { $0 } == false, "the read waited for a writer")
        guard case .failure(let error) = result else {
            Issue.record("a FIFO was read as a feed")
            return
        }
        #expect(error.kind == .file)
        #expect(error.message == "\(path) is a FIFO, not a regular file")
    }

    @Test func pollRefusesDevicesAndDirectories() {
        for (path, kind) in [
            ("/dev/null", "a character device"), ("/dev/zero", "a character device"), (dir.path, "a directory"),
        ] {
            guard case .failure(let error) = FileFetch.read(path: path, request: FetchRequest(url: path)) else {
                Issue.record("\(path) was read as a feed")
                continue
            }
            #expect(error.message == "\(path) is \(kind), not a regular file")
        }
    }

    @Test func addRefusesNonRegularFiles() throws {
        let fifo = try fifo()
        for (path, kind) in [("/dev/null", "a character device"), (dir.path, "a directory"), (fifo, "a FIFO")] {
            let captured = CapturedConsole()
            let runner = CommandRunner(
                console: captured.console(), environment: ["HOME": "/nonexistent-home"], currentDirectory: dir.path)
            let code = runner.run(["--state", dir.file("state"), "add", path])
            #expect(code == .inputError, "\(path)")
            #expect(
                captured.err
                    == "podcast-watch: \(path) is \(kind), not a regular file (from '\(path)'; a local feed must be a regular file)\n"
            )
        }
        let captured = CapturedConsole()
        let runner = CommandRunner(
            console: captured.console(), environment: ["HOME": "/nonexistent-home"], currentDirectory: dir.path)
        #expect(runner.run(["--state", dir.file("state"), "list", "--json"]) == .success)
        #expect(captured.out == "")
    }

    @Test func importSkipsNonRegularFiles() throws {
        let fifo = try fifo()
        let regular = dir.file("ok.xml")
        try Data("<rss/>".utf8).write(to: URL(fileURLWithPath: regular))
        let opml = dir.file("subs.opml")
        try Data(
            """
            <opml version="2.0"><body><outline text="Null" xmlUrl="/dev/null"/><outline text="Pipe" xmlUrl="\(fifo)"/><outline text="Ok" xmlUrl="\(regular)"/></body></opml>
            """.utf8
        ).write(to: URL(fileURLWithPath: opml))
        let captured = CapturedConsole()
        let runner = CommandRunner(
            console: captured.console(), environment: ["HOME": "/nonexistent-home"], currentDirectory: dir.path)
        #expect(runner.run(["--state", dir.file("state"), "import", opml]) == .success)
        #expect(
            captured.err == """
                podcast-watch: skipped outline "Null" (xmlUrl /dev/null): /dev/null is a character device, not a regular file
                podcast-watch: skipped outline "Pipe" (xmlUrl \(fifo)): \(fifo) is a FIFO, not a regular file

                """)
        #expect(captured.out == "Imported 1 feed from \(opml) (0 already subscribed, 2 skipped)\n")
    }

    /// `show` is a one-shot command: unlike the daemon it reads a pipe to its end
    /// (`curl … | podcast-watch show /dev/stdin`).
    @Test func showStillReadsAPipe() throws {
        let path = try fifo()
        let writer = Thread {
            let fd = open(path, O_WRONLY)
            let text = Array("<rss version=\"2.0\"><channel><title>Piped</title></channel></rss>".utf8)
            _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let captured = CapturedConsole()
        let code = CommandRunner(console: captured.console(), environment: [:], currentDirectory: dir.path).run([
            "show", path, "--json",
        ])
        #expect(code == .success, "\(captured.err)")
        #expect(captured.out.contains("\"title\":\"Piped\""))
    }
}
