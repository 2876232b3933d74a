import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// `run --interval` applies only to feeds without their own interval.
@Suite struct IntervalOverrideTests {
    @Test func explicitIntervalsWinOverRunInterval() throws {
        let dir = TemporaryDirectory("interval")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        _ = try store.add(url: "http://h/explicit-hour", intervalSeconds: 3600)
        _ = try store.add(url: "http://h/default")
        _ = try store.add(url: "http://h/ten-minutes", intervalSeconds: 600)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            configuration: .init(intervalOverride: 60), random: noJitter)
        try daemon.start()
        fetcher.respondAll { ok($0, "g1") }
        #expect(daemon.pendingPollDelays == [60, 600, 3600])
        scheduler.advance(by: 60)
        #expect(fetcher.pendingURLs == ["http://h/default"])

        // (Without run --interval a feed without its own polls hourly: PodcastDaemonTests.)
        daemon.stop()
    }
}
