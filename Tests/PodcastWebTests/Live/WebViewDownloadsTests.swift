import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastEngine
@testable import PodcastStore
@testable import PodcastWeb

/// Download progress reaches event-stream clients as part of the one `update` event of the loop
/// iteration, however many progress changes it saw.
final class WebViewDownloadsTests: XCTestCase {
    func testManyProgressChangesInOneIterationAreOneUpdate() throws {
        let dir = TemporaryDirectory("web-downloads")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        let library = LibraryViewModel()
        let downloads = DownloadsViewModel()
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(
            data: WebLibraryData(library: library, store: store), hub: hub, scheduler: scheduler, downloads: downloads)
        let client = RecordingSSEClient()
        hub.add(client)

        let timer = loop.scheduleTimer(after: .nanoseconds(0)) {
            downloads.upsert(
                DownloadProgress(
                    id: 7, podcastTitle: "Show", episodeTitle: "Ep", path: "/m/e.mp3", bytes: 0, total: 1000))
            for bytes in stride(from: 100, through: 500, by: 100) {
                downloads.update(id: 7, bytes: Int64(bytes), total: 1000, bytesPerSecond: 2000)
            }
            downloads.setWaiting(2)
        }
        XCTAssertTrue(loop.runOnce(blocking: true))
        withExtendedLifetime(timer) {}
        XCTAssertEqual(client.events.map(\.name), ["snapshot", "update"])
        let update = jsonObject(client.events[1].data)
        let sent = try XCTUnwrap(update["downloads"] as? [String: Any])
        let active = try XCTUnwrap(sent["active"] as? [[String: Any]])
        XCTAssertEqual(active.count, 1)
        XCTAssertEqual(active.first?["episode_id"] as? Int, 7)
        XCTAssertEqual(active.first?["bytes"] as? Int, 500)
        XCTAssertEqual(active.first?["total"] as? Int, 1000)
        XCTAssertEqual(active.first?["bytes_per_second"] as? Int, 2000)
        XCTAssertEqual(sent["waiting"] as? Int, 2)
        XCTAssertEqual((update["feeds"] as? [Any])?.count, 0)

        let finish = loop.scheduleTimer(after: .nanoseconds(0)) {
            downloads.end(id: 7, finished: true)
            downloads.setWaiting(1)
        }
        XCTAssertTrue(loop.runOnce(blocking: true))
        withExtendedLifetime(finish) {}
        XCTAssertEqual(client.events.map(\.name), ["snapshot", "update", "update"])
        let done = try XCTUnwrap(jsonObject(client.events[2].data)["downloads"] as? [String: Any])
        XCTAssertEqual((done["active"] as? [Any])?.count, 0)
        XCTAssertEqual(done["finished"] as? Int, 1)
        XCTAssertEqual(done["waiting"] as? Int, 1)

        XCTAssertTrue(loop.runOnce(blocking: false))  // nothing changed: no event
        XCTAssertEqual(client.events.count, 3)
        withExtendedLifetime(view) {}
    }
}
