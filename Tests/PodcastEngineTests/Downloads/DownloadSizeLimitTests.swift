import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// One enclosure could fill the disk: a body that never ended (no Content-Length), or a huge
/// one, was written up to the 16 GiB cap whatever length the feed declared, and every retry did
/// it again. Now a download is bounded by its declared length with a margin and by
/// `--download-max-size`; a file past the bound is refused for good, its part deleted.
@Suite(.serialized) struct DownloadSizeLimitTests {
    @Test func theBoundIsTheDeclaredLengthWithAMarginAndTheAbsoluteCap() {
        var settings = DownloadSettings(directory: "/d")
        #expect(settings.maxFileBytes == 8 << 30)
        #expect(settings.byteLimit(declaredLength: nil) == 8 << 30)
        #expect(settings.byteLimit(declaredLength: 1_000) == 1_000 + (64 << 20))  // small: + 64 MiB
        #expect(settings.byteLimit(declaredLength: 100 << 20) == 200 << 20)  // larger: twice
        #expect(settings.byteLimit(declaredLength: 6 << 30) == 8 << 30)  // never past the cap
        #expect(settings.byteLimit(declaredLength: .max) == 8 << 30)
        settings.maxFileBytes = 1 << 20
        #expect(settings.byteLimit(declaredLength: 1_000) == 1 << 20)
    }

    /// The reported case: declared small, the body never ends (chunked, no length). It is cut
    /// at the bound (twice the declared length, at least 64 MiB over it), deleted, not retried.
    @Test func aBodyThatOutgrowsItsDeclaredLengthIsCutAndNotRetried() throws {
        let h = try DownloadHarness()
        let endless = [UInt8](repeating: 0x41, count: 70 << 20)
        h.server.route("/endless.mp3") { _ in TestHTTPServer.Response(status: 200, body: endless, chunked: true) }
        try h.queue.start()
        let id = try h.announce(title: "Endless", path: "/endless.mp3", length: 1_000)
        h.run(until: { h.isSettled(id) })
        let record = try #require(h.record(id))
        #expect(record.state == .failed)
        let limit = 1_000 + (64 << 20)
        #expect(
            record.error
                == "the body passed \(limit) bytes, more than the \(limit) bytes this download may take (twice the 1000 bytes the feed declares, or that plus 64 MiB)"
        )
        #expect(record.nextRetry == nil)  // a retry would fetch the same
        #expect(h.contents(record.path + ".part") == nil)  // its bytes give their space back
        #expect(h.contents(record.path) == nil)
        #expect(h.warnings.contains { $0.hasSuffix("; not retried") })
        #expect(h.events.last?.kind == .failed)
        #expect(h.events.last?.error == record.error)
        // A restart does not take it up again either.
        h.makeQueue()
        try h.queue.start()
        #expect(h.queue.activeCount == 0 && h.queue.waitingCount == 0)
        #expect(h.server.requestCount("/endless.mp3") == 1)
    }

    /// A server announcing more than the bound is refused before its body is read.
    @Test func aContentLengthPastTheBoundIsRefusedBeforeTheBody() throws {
        let h = try DownloadHarness { $0.maxFileBytes = 1 << 20 }
        let big = DownloadHarness.bytes(3 << 20, seed: 3)
        h.server.route("/big.mp3") { .file(big, for: $0) }
        try h.queue.start()
        let id = try h.announce(title: "Big", path: "/big.mp3")
        h.run(until: { h.isSettled(id) })
        let record = try #require(h.record(id))
        #expect(record.state == .failed)
        #expect(
            record.error
                == "the server announces \(3 << 20) bytes, more than the \(1 << 20) bytes this download may take (download-max-size)"
        )
        #expect(record.nextRetry == nil)
        #expect(record.bytes == 0)
        #expect(h.contents(record.path + ".part") == nil)
    }
}
