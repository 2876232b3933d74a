import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// An imported `pw:interval` of 1e10 s armed libevent for 292 years (and
/// overflowed the monotonic deadline). Every interval and deadline is clamped to 30 days,
/// whatever its source: OPML, the CLI, `Retry-After`, a policy, a stored row.
@Suite struct DeadlineClampTests {
    let dir = TemporaryDirectory("clamp")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()
    static let month = 30.0 * 86_400

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    @Test func storedIntervalOf1e10IsClampedAndOtherFeedsGoOn() throws {
        let huge = try store.add(url: "http://h/huge")
        _ = try store.add(url: "http://h/minute", intervalSeconds: 60)
        // A row written by an older version or by hand, past every check on the way in.
        try store.database.run("UPDATE feeds SET interval_seconds = 10000000000 WHERE id = ?1", .integer(huge.id))
        let clock = Date(timeIntervalSince1970: 1_000_000)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, now: { clock }, random: noJitter)
        try daemon.start()
        fetcher.respondAll { ok($0, "g1") }
        #expect(daemon.pendingPollDelays == [60, Self.month])
        #expect(try store.feed(id: huge.id)?.nextPoll == clock.addingTimeInterval(Self.month))
        scheduler.advance(by: 60)
        #expect(fetcher.pendingURLs == ["http://h/minute"])
        daemon.stop()
    }

    @Test func retryAfterAndPolicyNumbersAreClamped() throws {
        _ = try store.add(url: "http://h/a")
        var configuration = PodcastDaemon<ManualScheduler>.Configuration()
        configuration.policy = PollPolicy(initialBackoff: 1e12, maxBackoff: .infinity, maxRetryAfter: .infinity)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, configuration: configuration,
            random: noJitter)
        try daemon.start()
        fetcher.respond(
            "http://h/a",
            .failure(
                FetchError(
                    kind: .httpStatus(503), url: "http://h/a", message: "HTTP 503", status: 503,
                    headers: ["retry-after": "999999999999"])))
        #expect(daemon.pendingPollDelays == [Self.month])
        daemon.stop()
    }

    @Test func clampedDelayHandlesEveryDouble() {
        #expect(PollPolicy.clampedDelay(.nan) == Self.month)
        #expect(PollPolicy.clampedDelay(.infinity) == Self.month)
        #expect(PollPolicy.clampedDelay(-5) == 0)
        #expect(PollPolicy.clampedDelay(90) == 90)
        #expect(PollPolicy().effectiveInterval(1e10) == Self.month)
        #expect(PollPolicy().effectiveInterval(.nan) == 3600)
    }
}
