import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import ViewModelKitSchedulers
import XCTest

@testable import PodcastEngine
@testable import PodcastWeb

/// `/metrics`: the Prometheus text format with exact values.
final class WebMetricsTests: XCTestCase {
    func testExpositionHasEveryFamilyWithExactValues() {
        let metrics = WebMetrics()
        let now = Date(timeIntervalSince1970: 0)
        metrics.record(
            .feedUpdated(
                FeedUpdateReport(
                    time: now, feedURL: "u", podcastTitle: nil, newEpisodes: 1, notModified: false, nextPoll: nil)))
        metrics.record(
            .feedUpdated(
                FeedUpdateReport(
                    time: now, feedURL: "u", podcastTitle: nil, newEpisodes: 0, notModified: true, nextPoll: nil)))
        metrics.record(
            .newEpisode(
                EpisodeAnnouncement(time: now, feedURL: "u", podcastTitle: nil, title: "t", guid: nil, url: nil)))
        for seconds in [0.01, 0.05, 0.3, 7, 45] { metrics.recordFetch(seconds: seconds) }
        metrics.podcasts = {
            [
                Podcast(id: 1, url: "a", status: .ok), Podcast(id: 2, url: "b", status: .ok),
                Podcast(id: 3, url: "c", status: .failing),
            ]
        }
        metrics.sseClients = { 2 }
        metrics.httpConnections = { 3 }
        metrics.viewUpdates = { 11 }
        metrics.loopFlushes = { 12 }
        metrics.residentBytes = { 4096 }
        XCTAssertEqual(
            metrics.render(),
            """
            # HELP podcast_watch_polls_total Feed polls finished, by outcome.
            # TYPE podcast_watch_polls_total counter
            podcast_watch_polls_total{outcome="fetched"} 1
            podcast_watch_polls_total{outcome="not_modified"} 1
            podcast_watch_polls_total{outcome="failed"} 0
            # HELP podcast_watch_fetch_duration_seconds Time from starting a fetch to its result.
            # TYPE podcast_watch_fetch_duration_seconds histogram
            podcast_watch_fetch_duration_seconds_bucket{le="0.05"} 2
            podcast_watch_fetch_duration_seconds_bucket{le="0.1"} 2
            podcast_watch_fetch_duration_seconds_bucket{le="0.25"} 2
            podcast_watch_fetch_duration_seconds_bucket{le="0.5"} 3
            podcast_watch_fetch_duration_seconds_bucket{le="1"} 3
            podcast_watch_fetch_duration_seconds_bucket{le="2.5"} 3
            podcast_watch_fetch_duration_seconds_bucket{le="5"} 3
            podcast_watch_fetch_duration_seconds_bucket{le="10"} 4
            podcast_watch_fetch_duration_seconds_bucket{le="30"} 4
            podcast_watch_fetch_duration_seconds_bucket{le="+Inf"} 5
            podcast_watch_fetch_duration_seconds_sum 52.36
            podcast_watch_fetch_duration_seconds_count 5
            # HELP podcast_watch_feeds Subscribed feeds, by status.
            # TYPE podcast_watch_feeds gauge
            podcast_watch_feeds{status="waiting"} 0
            podcast_watch_feeds{status="polling"} 0
            podcast_watch_feeds{status="ok"} 2
            podcast_watch_feeds{status="backing-off"} 0
            podcast_watch_feeds{status="failing"} 1
            podcast_watch_feeds{status="disabled"} 0
            # HELP podcast_watch_episodes_announced_total New episodes announced since start.
            # TYPE podcast_watch_episodes_announced_total counter
            podcast_watch_episodes_announced_total 1
            # HELP podcast_watch_view_updates_total Loop iterations in which the library changed (one web view update each).
            # TYPE podcast_watch_view_updates_total counter
            podcast_watch_view_updates_total 11
            # HELP podcast_watch_loop_flushes_total End-of-iteration flushes of the event loop that delivered a source.
            # TYPE podcast_watch_loop_flushes_total counter
            podcast_watch_loop_flushes_total 12
            # HELP podcast_watch_sse_clients Dashboard event-stream clients connected.
            # TYPE podcast_watch_sse_clients gauge
            podcast_watch_sse_clients 2
            # HELP podcast_watch_http_connections HTTP connections open.
            # TYPE podcast_watch_http_connections gauge
            podcast_watch_http_connections 3
            # HELP process_resident_memory_bytes Resident memory size in bytes.
            # TYPE process_resident_memory_bytes gauge
            process_resident_memory_bytes 4096

            """)
    }

    func testMetricsThroughTheRouterCountTheFixturePolls() throws {
        let web = try WebFixture()
        let data = web.data
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(data: data, hub: hub, scheduler: TestScheduler(), metrics: web.metrics)
        let response = web.send("GET", "/metrics")
        XCTAssertEqual(response.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
        XCTAssertTrue(response.text.contains("podcast_watch_polls_total{outcome=\"fetched\"} 1\n"))
        XCTAssertTrue(response.text.contains("podcast_watch_polls_total{outcome=\"failed\"} 1\n"))
        XCTAssertTrue(response.text.contains("podcast_watch_episodes_announced_total 2\n"))
        XCTAssertNotNil(WebMetrics.residentBytes())
        XCTAssertGreaterThan(WebMetrics.residentBytes() ?? 0, 1_000_000)
        withExtendedLifetime(view) {}
    }
}

/// The web's byte serialiser writes exactly what `OrderedJSON.serialized` writes.
final class JSONBytesTests: XCTestCase {
    func testBytesEqualTheSerializedText() {
        let strings = [
            "", "plain", "quote \" backslash \\ slash /", "tab\tnew\nline\r", "\u{0}\u{1F}\u{7F}", "é ü 日本 🎧",
            "bidi \u{202E}override\u{202C}", "c1 \u{85}\u{9B}", "ls \u{2028} ps \u{2029}", "</script><img src=x>",
        ]
        for s in strings {
            let value = OrderedJSON.object([
                (s, .string(s)), ("n", .number(1.5)), ("i", .int(-3)), ("a", .array([.null, .bool(true), .string(s)])),
            ])
            XCTAssertEqual(String(decoding: value.utf8Bytes, as: UTF8.self), value.serialized, s.debugDescription)
        }
    }
}
