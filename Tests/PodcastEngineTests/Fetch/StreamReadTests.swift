import Dispatch
import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// `show` of a pipe or FIFO (`FileFetch.readStream`) is bounded like a fetch: a FIFO with no
/// writer used to block for ever in `open(2)`, a silent pipe for ever in `read(2)`.
@Suite struct StreamReadTests {
    /// Short bounds, so a refusal comes in tens of milliseconds.
    static let limits = FetchLimits(connectTimeout: 0.02, totalTimeout: 0.04)

    /// `readStream` on a thread of its own, waited for at most `seconds`: `nil` when it did not
    /// return (then `unblock` runs, so the thread can end).
    static func read(_ path: String, within seconds: Double = 2, unblock: () -> Void = {}) -> FetchResult? {
        final class Box: @unchecked Sendable { var result: FetchResult? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let request = FetchRequest(url: path, limits: limits)
        Thread.detachNewThread {
            box.result = FileFetch.readStream(path: path, request: request)
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            unblock()
            done.wait()
            return nil
        }
        return box.result
    }

    @Test func aFIFOWithNoWriterIsRefusedInsteadOfBlockingInOpen() throws {
        let dir = TemporaryDirectory()
        let fifo = dir.file("feed.fifo")
        try #require(mkfifo(fifo, 0o600) == 0)
        // The old code sat in open(2): a writer's open releases it, so the test always ends.
        let result = Self.read(fifo) {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        let error = try #require(result?.error, "readStream did not return")
        #expect(error.kind == .file)
        #expect(
            error.message
                == "\(fifo): nothing to read within 0.02 s (a FIFO with no writer, or a pipe whose writer sends nothing)"
        )
    }

    @Test func aPipeWhoseWriterSendsNothingIsRefused() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        let path = "/proc/self/fd/\(ends[0])"
        let result = Self.read(path) { close(ends[1]) }  // the old code waited in read(2)
        close(ends[0])
        let error = try #require(result?.error, "readStream did not return")
        #expect(error.message.hasPrefix("\(path): nothing to read within 0.02 s"))
    }

    @Test func aPipeThatStopsMidwayIsRefusedAtTheTotalBound() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        _ = "<rss>".withCString { write(ends[1], $0, 5) }
        let path = "/proc/self/fd/\(ends[0])"
        let result = Self.read(path) { close(ends[1]) }
        close(ends[0])
        #expect(result?.error?.message == "\(path): the stream did not end within 0.04 s")
    }

    @Test func aWriterThatComesWritesAndLeavesIsReadToItsEnd() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let feed = "<rss version=\"2.0\"><channel><title>piped</title></channel></rss>"
        _ = feed.withCString { write(ends[1], $0, strlen($0)) }
        close(ends[1])
        let result = Self.read("/proc/self/fd/\(ends[0])")
        close(ends[0])
        #expect(result?.value.map { String(decoding: $0.body, as: UTF8.self) } == feed)
        // An empty stream whose writer is gone is an empty body at once, not a wait.
        try #require(pipe(&ends) == 0)
        close(ends[1])
        let empty = Self.read("/proc/self/fd/\(ends[0])")
        close(ends[0])
        #expect(empty?.value?.body == Data())
        // A device that never ends is cut at the size cap, as before.
        let zero = FileFetch.readStream(
            path: "/dev/zero", request: FetchRequest(url: "/dev/zero", limits: FetchLimits(maxResponseBytes: 1000)))
        #expect(zero.error?.kind == .tooLarge(decoded: false))
    }
}
