import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// Outside the parsers: unchecked conversions reachable from a parsed feed, a
/// header or a stored row trapped (`Int64(1e30)` is a crash, not an error).
@Suite struct ConversionAuditTests {
    @Test func hookEnvironmentTakesAnyDuration() {
        for (duration, shown) in [(1e30, "1e+30"), (Double.infinity, "inf"), (-0.0, "0"), (5400, "5400"), (1.5, "1.5")]
        {
            let e = EpisodeAnnouncement(
                time: Date(), feedURL: "http://h/f", podcastTitle: nil, title: nil, guid: "g", url: nil,
                duration: duration)
            #expect(HookRunner.environment(for: e).first { $0.0 == "EPISODE_DURATION" }?.1 == shown)
        }
    }

    @Test func identityOfAnEpisodeDatedBeyondInt64() {
        let far = Episode(title: "t", published: Date(timeIntervalSince1970: 1e300))
        #expect(EpisodeIdentity(far).key.hasPrefix("hash:"))
        let near = Episode(title: "t", published: Date(timeIntervalSince1970: 86_400.7))
        #expect(
            EpisodeIdentity(near).key
                == EpisodeIdentity(Episode(title: "t", published: Date(timeIntervalSince1970: 86_400))).key)
    }

    @Test func showFormatsAnyDuration() {
        #expect(FeedReport.formatDuration(1e30) == "1e+30 s")
        #expect(FeedReport.formatDuration(.nan) == "nan s")
        #expect(FeedReport.formatDuration(3723.5) == "1:02:03.500")
        // A fraction that rounds up carries into the seconds (it printed "0:00:01.1000").
        #expect(FeedReport.formatDuration(1.9999) == "0:00:02")
        #expect(FeedReport.formatDuration(59.9996) == "0:01:00")
        #expect(FeedReport.formatDuration(0.0004) == "0:00:00")
    }

    @Test func failureCountAtIntMaxDoesNotTrap() throws {
        let dir = TemporaryDirectory("audit")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        let feed = try store.add(url: "http://h/f")
        try store.database.run(
            "UPDATE feeds SET failure_count = ?1 WHERE id = ?2", .integer(Int64.max), .integer(feed.id))
        let result = try store.apply(
            update: FeedUpdate(feedID: feed.id, outcome: .failed(FeedFailure(message: "down"))))
        #expect(result.feed.failureCount == Int.max)
        let decision = PollPolicy(jitterFraction: 0).decide(
            after: .networkError, previousFailures: Int.max, interval: nil)
        #expect(decision == PollPolicy.Decision(health: .backingOff, consecutiveFailures: .max, delay: 12 * 3600))
    }
}
