import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// A feed's stated schedule (`podcast:updateFrequency`) slows its polling, within the configured
/// bounds, unless the feed has an interval of its own.
@Suite struct ScheduleHintTests {
    static func rss(_ schedule: String) -> String {
        """
        <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>T</title>
        \(schedule)<item><guid>g1</guid></item></channel></rss>
        """
    }

    @Test func aStatedScheduleSlowsPollingWithinTheBounds() throws {
        let dir = TemporaryDirectory("schedule-hint")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        _ = try store.add(url: "http://a/daily")
        _ = try store.add(url: "http://b/complete")
        _ = try store.add(url: "http://c/own", intervalSeconds: 600)
        _ = try store.add(url: "http://d/none")
        _ = try store.add(url: "http://e/every-minute")
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: scheduler, random: noJitter)
        try daemon.start()
        let bodies = [
            "http://a/daily": Self.rss("<podcast:updateFrequency rrule=\"FREQ=DAILY\">Daily</podcast:updateFrequency>"),
            "http://b/complete": Self.rss("<podcast:updateFrequency complete=\"true\">Done</podcast:updateFrequency>"),
            "http://c/own": Self.rss("<podcast:updateFrequency rrule=\"FREQ=DAILY\">Daily</podcast:updateFrequency>"),
            "http://d/none": Self.rss(""),
            "http://e/every-minute": Self.rss(
                "<podcast:updateFrequency rrule=\"FREQ=MINUTELY\">Always</podcast:updateFrequency>"),
        ]
        fetcher.respondAll { url in
            .success(
                FetchResponse(status: 200, body: Data(bodies[url]!.utf8), requestedURL: url, effectiveURL: url))
        }
        // Own interval 600 s; none and a schedule faster than the default: the default hour;
        // daily: a quarter of a day; complete: the 24 h ceiling.
        #expect(daemon.pendingPollDelays == [600, 3600, 3600, 21_600, 86_400])
        daemon.stop()
    }
}
