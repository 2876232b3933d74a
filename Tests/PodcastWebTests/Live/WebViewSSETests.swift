import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import ViewModelKitSchedulers
import XCTest

@testable import PodcastEngine
@testable import PodcastStore
@testable import PodcastWeb

/// The web view as a second observer of the daemon's library: one SSE event per loop iteration
/// per client, carrying everything that changed in it; slow readers get the latest state.
final class WebViewSSETests: XCTestCase {
    func testFiftyFeedsCompletingInOneIterationReachEachClientAsOneEvent() throws {
        let dir = TemporaryDirectory("web-coalesce")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        for i in 0..<50 { try store.add(url: "http://h/\(i)") }
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        let fetcher = ScriptedFetcher()
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            configuration: .init(maxConcurrentFetches: 50, maxFetchesPerHost: 50), random: noJitter)
        let hub = SSEHub(snapshot: { "{}" })
        let metrics = WebMetrics()
        let view = WebView(
            data: WebLibraryData(library: daemon.library, store: store), hub: hub, scheduler: scheduler,
            metrics: metrics)
        let clients = [RecordingSSEClient(), RecordingSSEClient()]
        for client in clients { hub.add(client) }
        try daemon.start()
        XCTAssertTrue(loop.runOnce(blocking: false))  // the "polling" states
        XCTAssertEqual(clients[0].events.map(\.name), ["snapshot", "update"])
        XCTAssertEqual(fetcher.pendingURLs.count, 50)

        let timer = loop.scheduleTimer(after: .nanoseconds(0)) { fetcher.respondAll { ok($0, "g1,g2") } }
        XCTAssertTrue(loop.runOnce(blocking: true))
        withExtendedLifetime(timer) {}
        XCTAssertEqual(daemon.completedPolls, 50)
        for client in clients {
            XCTAssertEqual(client.events.map(\.name), ["snapshot", "update", "update"])  // one more for 50 polls
            let update = jsonObject(client.events[2].data)
            let feeds = update["feeds"] as? [[String: Any]] ?? []
            XCTAssertEqual(feeds.map { $0["id"] as? Int }, (1...50).map { $0 })
            XCTAssertEqual(Set(feeds.map { $0["status"] as? String }), ["ok"])
            XCTAssertEqual(Set(feeds.map { $0["episode_count"] as? Int }), [2])
            XCTAssertEqual((update["episodes"] as? [Any])?.count, 50)  // the newest list (capacity 50)
            XCTAssertEqual((update["counts"] as? [String: Any])?["ok"] as? Int, 50)
            XCTAssertEqual((update["counts"] as? [String: Any])?["new_since_start"] as? Int, 100)
        }
        XCTAssertEqual(hub.publishedCount, 2)
        XCTAssertEqual(metrics.polls["fetched"], 50)
        XCTAssertEqual(metrics.episodesAnnounced, 100)

        XCTAssertTrue(loop.runOnce(blocking: false))  // nothing changed: no event
        XCTAssertEqual(clients[0].events.count, 3)
        withExtendedLifetime(view) {}
    }

    func testASlowReaderGetsTheLatestStateWhenItCatchesUpNotAQueue() throws {
        let library = LibraryViewModel()
        let scheduler = TestScheduler()
        let dir = TemporaryDirectory("web-slow")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        library.upsert(Podcast(id: 1, url: "http://h/1", title: "One"))
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(data: WebLibraryData(library: library, store: store), hub: hub, scheduler: scheduler)
        let fast = RecordingSSEClient()
        let slow = RecordingSSEClient()
        hub.add(fast)
        hub.add(slow)
        slow.backedUp = true
        for n in 1...5 {
            library.update(id: 1) { $0.newCount = n }
            scheduler.advance()
        }
        XCTAssertEqual(fast.events.map(\.name), ["snapshot"] + Array(repeating: "update", count: 5))
        XCTAssertEqual(slow.events.map(\.name), ["snapshot"])  // nothing queued while backed up
        XCTAssertEqual(hub.skippedCount, 1)  // marked stale once, then skipped silently
        slow.drain()
        XCTAssertEqual(slow.events.map(\.name), ["snapshot", "snapshot"])
        let latest = jsonObject(slow.events[1].data)["feeds"] as? [[String: Any]]
        XCTAssertEqual(latest?.first?["new_count"] as? Int, 5)  // the state as it is now
        // Caught up: it gets the next update like everyone else.
        library.update(id: 1) { $0.newCount = 6 }
        scheduler.advance()
        XCTAssertEqual(slow.events.map(\.name), ["snapshot", "snapshot", "update"])
        XCTAssertEqual(view.updateCount, 7)
        XCTAssertEqual(view.changeUpdateCount, 6)  // the metric: six changes, not the priming update
    }

    /// A removed feed's episodes leave the dashboard's newest list, and the next update says so.
    func testRemovingAFeedDropsItsEpisodesFromTheNewestListInTheNextUpdate() throws {
        let library = LibraryViewModel()
        let scheduler = TestScheduler()
        let dir = TemporaryDirectory("web-remove-newest")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        library.upsert(Podcast(id: 1, url: "http://h/1"))
        library.upsert(Podcast(id: 2, url: "http://h/2"))
        func episode(_ guid: String, _ url: String, day: Double) -> EpisodeAnnouncement {
            var a = EpisodeAnnouncement(
                time: Date(timeIntervalSince1970: 0), feedURL: url, podcastTitle: nil, title: guid, guid: guid,
                url: nil)
            a.published = Date(timeIntervalSince1970: day * 86_400)
            return a
        }
        library.record(.newEpisode(episode("a1", "http://h/1", day: 3)), feedID: 1)
        library.record(.newEpisode(episode("b1", "http://h/2", day: 2)), feedID: 2)
        library.loadNewest(library.newestEpisodes + [episode("a0", "http://h/1", day: 1)])  // no feedID: by URL
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(data: WebLibraryData(library: library, store: store), hub: hub, scheduler: scheduler)
        let client = RecordingSSEClient()
        hub.add(client)
        library.remove(id: 1)
        XCTAssertEqual(library.newestEpisodes.map(\.guid), ["b1"])
        scheduler.advance()
        XCTAssertEqual(client.events.map(\.name), ["snapshot", "update"])
        let update = jsonObject(client.events[1].data)
        XCTAssertEqual(update["removed"] as? [Int], [1])
        XCTAssertEqual((update["episodes"] as? [[String: Any]])?.map { $0["title"] as? String }, ["b1"])
        withExtendedLifetime(view) {}
    }

    func testRemovedFeedsAndClosedClients() throws {
        let library = LibraryViewModel()
        let scheduler = TestScheduler()
        let dir = TemporaryDirectory("web-remove")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        library.upsert(Podcast(id: 1, url: "http://h/1"))
        library.upsert(Podcast(id: 2, url: "http://h/2"))
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(data: WebLibraryData(library: library, store: store), hub: hub, scheduler: scheduler)
        let client = RecordingSSEClient()
        hub.add(client)
        XCTAssertEqual(
            client.events[0].data,
            #"{"feeds":[{"id":1,"url":"http://h/1","title":null,"status":"waiting","last_check":null,"next_poll":null,"last_error":null,"hook_error":null,"episode_count":0,"new_count":0,"hook_retry":null},{"id":2,"url":"http://h/2","title":null,"status":"waiting","last_check":null,"next_poll":null,"last_error":null,"hook_error":null,"episode_count":0,"new_count":0,"hook_retry":null}],"episodes":[],"counts":{"feeds":2,"waiting":2,"polling":0,"ok":0,"backing-off":0,"failing":0,"disabled":0,"new_since_start":0}}"#
        )
        library.remove(id: 1)
        scheduler.advance()
        XCTAssertEqual(
            client.events[1].data,
            #"{"feeds":[],"removed":[1],"counts":{"feeds":1,"waiting":1,"polling":0,"ok":0,"backing-off":0,"failing":0,"disabled":0,"new_since_start":0}}"#
        )
        client.isOpen = false
        client.onClose?()
        XCTAssertEqual(hub.clientCount, 0)
        library.remove(id: 2)
        scheduler.advance()
        XCTAssertEqual(client.events.count, 2)
        withExtendedLifetime(view) {}
    }
}

/// The web view's work per update follows what changed, not the library's size.
final class WebViewChangeTests: XCTestCase {
    /// 1,000 feeds, one changes: the update looks at one row (one episode-count lookup), sends
    /// that feed alone, and its counts are those of the whole library.
    func testAnUpdateTouchingOneFeedLooksAtOneRow() throws {
        let library = LibraryViewModel()
        let scheduler = TestScheduler()
        let dir = TemporaryDirectory("web-change")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        library.upsert(contentsOf: (1...1000).map { Podcast(id: Int64($0), url: "http://h/\($0)") })
        let hub = SSEHub(snapshot: { "{}" })
        let data = WebLibraryData(library: library, store: store)
        let view = WebView(data: data, hub: hub, scheduler: scheduler)
        let client = RecordingSSEClient()
        hub.add(client)
        let before = data.episodeCountCalls
        library.update(id: 500) {
            $0.status = .ok
            $0.newCount = 3
        }
        scheduler.advance()
        XCTAssertEqual(data.episodeCountCalls - before, 1)
        XCTAssertEqual(client.events.map(\.name), ["snapshot", "update"])
        let update = jsonObject(client.events[1].data)
        XCTAssertEqual((update["feeds"] as? [[String: Any]])?.map { $0["id"] as? Int }, [500])
        XCTAssertEqual((update["feeds"] as? [[String: Any]])?.first?["new_count"] as? Int, 3)
        XCTAssertEqual((update["counts"] as? [String: Any])?["waiting"] as? Int, 999)
        XCTAssertEqual((update["counts"] as? [String: Any])?["ok"] as? Int, 1)
        XCTAssertEqual((update["counts"] as? [String: Any])?["feeds"] as? Int, 1000)

        // Several changes to one feed in one iteration: still one row, sent once.
        let second = data.episodeCountCalls
        library.update(id: 7) { $0.newCount = 1 }
        library.update(id: 7) { $0.newCount = 2 }
        library.update(id: 9) { $0.status = .failing }
        scheduler.advance()
        XCTAssertEqual(data.episodeCountCalls - second, 2)
        let next = jsonObject(client.events[2].data)
        XCTAssertEqual((next["feeds"] as? [[String: Any]])?.map { $0["id"] as? Int }, [7, 9])
        XCTAssertEqual((next["counts"] as? [String: Any])?["failing"] as? Int, 1)
        XCTAssertEqual((next["counts"] as? [String: Any])?["waiting"] as? Int, 998)

        // Added and removed feeds.
        library.upsert(Podcast(id: 1001, url: "http://h/1001"))
        library.remove(id: 2)
        let third = data.episodeCountCalls
        scheduler.advance()
        XCTAssertEqual(data.episodeCountCalls - third, 1)
        let last = jsonObject(client.events[3].data)
        XCTAssertEqual((last["feeds"] as? [[String: Any]])?.map { $0["id"] as? Int }, [1001])
        XCTAssertEqual(last["removed"] as? [Int], [2])
        XCTAssertEqual((last["counts"] as? [String: Any])?["feeds"] as? Int, 1000)
        XCTAssertEqual((last["counts"] as? [String: Any])?["waiting"] as? Int, 998)

        // Nothing changed: no work, no event.
        let idle = data.episodeCountCalls
        scheduler.advance()
        XCTAssertEqual(data.episodeCountCalls - idle, 0)
        XCTAssertEqual(client.events.count, 4)
        withExtendedLifetime(view) {}
    }
}

extension WebViewChangeTests {
    /// Feeds added in bulk (more than the log takes at once) in the iteration a feed was
    /// removed: the change log no longer says
    /// which went, so each client gets the whole state as a `snapshot` (without the removed
    /// feed), not an `update` that would leave it on the page.
    func testAChangeTooWideForTheLogResyncsEveryClient() throws {
        let library = LibraryViewModel()
        let scheduler = TestScheduler()
        let dir = TemporaryDirectory("web-resync")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        library.upsert(contentsOf: (1...3).map { Podcast(id: Int64($0), url: "http://h/\($0)") })
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(data: WebLibraryData(library: library, store: store), hub: hub, scheduler: scheduler)
        let client = RecordingSSEClient()
        hub.add(client)
        library.remove(id: 1)
        library.upsert(contentsOf: (4...5000).map { Podcast(id: Int64($0), url: "http://h/\($0)") })
        scheduler.advance()
        XCTAssertEqual(client.events.map(\.name), ["snapshot", "snapshot"])
        let state = jsonObject(client.events[1].data)
        XCTAssertEqual((state["feeds"] as? [[String: Any]])?.map { $0["id"] as? Int }, Array(2...5000))
        XCTAssertEqual((state["counts"] as? [String: Any])?["feeds"] as? Int, 4999)
        // Then updates again, one row at a time.
        library.update(id: 5) { $0.newCount = 1 }
        scheduler.advance()
        XCTAssertEqual(client.events.map(\.name), ["snapshot", "snapshot", "update"])
        XCTAssertEqual(
            (jsonObject(client.events[2].data)["feeds"] as? [[String: Any]])?.map { $0["id"] as? Int }, [5])
        withExtendedLifetime(view) {}
    }
}
