import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// A 429/503's `Retry-After` reaches the poll policy through the daemon.
@Suite struct RetryAfterTests {
    let dir = TemporaryDirectory("retry-after")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()
    let clock = Date(timeIntervalSince1970: 1_000_000)

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    func failure(_ url: String, _ status: Int, retryAfter: String) -> FetchResult {
        .failure(
            FetchError(
                kind: .httpStatus(status), url: url, message: "HTTP \(status)", status: status,
                headers: ["retry-after": retryAfter]))
    }

    @Test func retryAfterSetsTheNextPollWithinBounds() throws {
        for i in 0..<5 { _ = try store.add(url: "http://h/\(i)") }
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            now: { [clock, scheduler] in clock.addingTimeInterval(Double(scheduler.now.nanoseconds) / 1e9) },
            random: noJitter)
        var errors: [FeedErrorReport] = []
        daemon.onEvent = { if case .feedError(let e) = $0 { errors.append(e) } }
        try daemon.start()
        fetcher.respond("http://h/0", failure("http://h/0", 503, retryAfter: "7200"))  // seconds
        // An HTTP date 3 h after the poll.
        fetcher.respond("http://h/1", failure("http://h/1", 429, retryAfter: "Mon, 12 Jan 1970 16:46:40 GMT"))
        fetcher.respond("http://h/2", failure("http://h/2", 503, retryAfter: "10"))  // below the backoff floor
        fetcher.respond("http://h/3", failure("http://h/3", 429, retryAfter: "31536000"))  // a year: capped at 24 h
        fetcher.respond("http://h/4", failure("http://h/4", 500, retryAfter: "7200"))  // not a 429/503: ignored
        #expect(errors.map(\.nextPoll) == [7200, 10_800, 300, 86_400, 300].map { clock.addingTimeInterval($0) })
        #expect(errors.map(\.health) == [.backingOff, .backingOff, .backingOff, .backingOff, .backingOff])
        #expect(
            try store.feeds().map(\.nextPoll) == [7200, 10_800, 300, 86_400, 300].map { clock.addingTimeInterval($0) })
        #expect(daemon.pendingPollDelays == [300, 300, 7200, 10_800, 86_400])
    }
}
