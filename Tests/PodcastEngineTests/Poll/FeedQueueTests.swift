import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

@Suite struct FeedQueueTests {
    @Test func firstInFirstOutAcrossCompactions() {
        var queue = FeedQueue()
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
        var expected: [Int64] = []
        var next: Int64 = 0
        var popped: [Int64] = []
        // Interleaved: 3 in, 2 out, so the consumed prefix passes the compaction threshold
        // (1,024) several times while ids are still queued behind it.
        for _ in 0..<3_000 {
            for _ in 0..<3 {
                queue.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<2 { popped.append(queue.popFirst()!) }
        }
        #expect(queue.count == 3_000)
        while let id = queue.popFirst() { popped.append(id) }
        #expect(popped == expected)
        #expect(queue.isEmpty)
        queue.append(42)
        #expect(queue.popFirst() == 42)
    }
}

@Suite struct HostQueueTests {
    let dir = TemporaryDirectory("hostqueue")

    /// Feeds over their host's limit wait in subscription order and are polled one by one as
    /// that host's fetches end; another host's feeds are not held up behind them.
    @Test func feedsWaitingForTheirHostArePolledInOrder() throws {
        let store = try FeedStore(path: dir.file("state.sqlite"))
        for index in 0..<6 { try store.add(url: "http://a/\(index)") }
        try store.add(url: "http://b/0")
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            configuration: .init(once: true, maxConcurrentFetches: 8, maxFetchesPerHost: 2), random: noJitter)
        var failed: [Int64]?
        daemon.onFinished = { failed = $0 }
        try daemon.start()
        #expect(fetcher.pendingURLs == ["http://a/0", "http://a/1", "http://b/0"])
        fetcher.respond("http://a/1", notModified("http://a/1"))
        #expect(fetcher.pendingURLs == ["http://a/0", "http://b/0", "http://a/2"])
        fetcher.respond("http://a/0", notModified("http://a/0"))
        fetcher.respond("http://a/2", notModified("http://a/2"))
        #expect(fetcher.pendingURLs == ["http://b/0", "http://a/3", "http://a/4"])
        fetcher.respondAll { notModified($0) }
        #expect(fetcher.pendingURLs == ["http://a/5"])
        fetcher.respondAll { notModified($0) }
        #expect(
            fetcher.requests.map(\.url) == [
                "http://a/0", "http://a/1", "http://b/0", "http://a/2", "http://a/3", "http://a/4", "http://a/5",
            ])
        // 304s to requests without validators count as failures; what matters here is the end.
        #expect(failed?.count == 7)
    }
}
