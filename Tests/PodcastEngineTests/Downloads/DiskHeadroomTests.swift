import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// Downloads leave free space on their disk: a response whose length would not fit with the
/// headroom is refused before its body, a body without a length stops where the headroom
/// begins, and both keep what they wrote and are retried later. On a real 1 MiB tmpfs (root),
/// so `statvfs` reports real numbers.
@Suite(.serialized) struct DiskHeadroomTests {
    @Test func theDefaultHeadroomIsFivePercentAtMostOneGiB() {
        #expect(DownloadSettings.headroom(fileSystemBytes: 1 << 20) == (1 << 20) / 20)
        #expect(DownloadSettings.headroom(fileSystemBytes: 100 << 30) == 1 << 30)
        #expect(DownloadSettings.headroom(fileSystemBytes: 0) == 0)
    }

    @Test func downloadsStopAtTheHeadroomAndKeepWhatTheyWrote() throws {
        let mount = TemporaryDirectory("pw-headroom")
        guard DiskFull.mount(mount.path, kilobytes: 1024) else {
            print("DiskHeadroomTests: SKIPPED: cannot mount a 1 MiB tmpfs at \(mount.path)")
            return
        }
        defer { DiskFull.unmount(mount.path) }
        let h = try DownloadHarness {
            $0.directory = mount.path + "/media"
            $0.keepFreeBytes = 512 << 10
        }
        let announced = DownloadHarness.bytes(600_000, seed: 1)
        let unannounced = DownloadHarness.bytes(600_000, seed: 2)
        let small = DownloadHarness.bytes(100_000, seed: 3)
        h.server.route("/announced.mp3") { .file(announced, for: $0) }
        h.server.route("/unannounced.mp3") { _ in
            TestHTTPServer.Response(status: 200, body: unannounced, chunked: true)
        }
        h.server.route("/small.mp3") { .file(small, for: $0) }
        try h.queue.start()

        // 600,000 announced, about 1 MiB free, 512 KiB to keep: refused before the body.
        let first = try h.announce(title: "Announced", path: "/announced.mp3")
        h.run(until: { h.isSettled(first) })
        let refused = try #require(h.record(first))
        #expect(refused.state == .failed)
        #expect(refused.error?.hasPrefix("not enough free space for \(refused.path).part: ") == true)
        #expect(refused.error?.hasSuffix("and downloads leave 0.5 MiB free") == true, "\(refused.error ?? "")")
        #expect(refused.nextRetry != nil)  // the disk may have room later
        #expect((h.contents(refused.path + ".part") ?? []).count < 300_000)

        // No length: written until the headroom, a clean prefix kept for the retry.
        let second = try h.announce(title: "Unannounced", path: "/unannounced.mp3")
        h.run(until: { h.isSettled(second) })
        let stopped = try #require(h.record(second))
        #expect(stopped.state == .failed)
        #expect(stopped.error?.hasPrefix("not enough free space for \(stopped.path).part: ") == true)
        #expect(stopped.nextRetry != nil)
        let part = h.contents(stopped.path + ".part") ?? []
        #expect(part == Array(unannounced[..<part.count]))
        #expect(stopped.bytes == Int64(part.count))
        #expect(part.count < 600_000)

        // What fits still downloads.
        try? FileManager.default.removeItem(atPath: refused.path + ".part")
        try? FileManager.default.removeItem(atPath: stopped.path + ".part")
        let third = try h.announce(title: "Small", path: "/small.mp3")
        h.run(until: { h.isSettled(third) })
        #expect(h.state(third) == .done)
        #expect(h.contents(h.record(third)!.path) == small)
    }
}
