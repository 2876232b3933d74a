import Foundation
import PodcastStore

/// One failed `--hook` attempt, reported as the `hook_failed` JSON event: what follows is a
/// retry at `retryAt`, nothing (`gaveUp`: every attempt failed, the final outcome, also
/// recorded on the feed for `list`), or a run at the next start (`retryAt` nil and `gaveUp`
/// false: the hook was still running at shutdown and was killed after the grace).
public struct HookFailureReport: Equatable, Sendable {
    /// When the attempt ended (wall clock).
    public var time: Date
    /// The announcement the hook ran for.
    public var episode: EpisodeAnnouncement
    /// How it ended: "exited with status 3", "killed by signal 9", "timed out after 600 s and
    /// was killed", "still running at shutdown; killed after the 5 s grace", "still running at
    /// shutdown; killed at a second signal".
    public var error: String
    /// Which attempt failed, 1-based.
    public var attempt: Int
    /// Attempts allowed in all (`--hook-retries` + 1).
    public var attempts: Int
    /// When the next attempt starts; `nil` when none follows in this run.
    public var retryAt: Date?
    /// True when this was the last attempt: the hook failed for good.
    public var gaveUp: Bool

    /// A report.
    public init(
        time: Date, episode: EpisodeAnnouncement, error: String, attempt: Int, attempts: Int, retryAt: Date?,
        gaveUp: Bool
    ) {
        self.time = time
        self.episode = episode
        self.error = error
        self.attempt = attempt
        self.attempts = attempts
        self.retryAt = retryAt
        self.gaveUp = gaveUp
    }
}

extension EpisodeAnnouncement {
    /// The announcement of stored episode `e` of `feed`, found at `time`, with its feed and
    /// episode ids for bookkeeping.
    public init(stored e: StoredEpisode, feed: FeedRecord, time: Date) {
        self.init(
            time: time, feedURL: feed.url, podcastTitle: feed.knownTitle, title: e.title, guid: e.guid,
            url: e.enclosure?.url, link: e.link, published: e.published, duration: e.duration,
            mimeType: e.enclosure?.mimeType, length: e.enclosure?.length)
        feedID = feed.id
        episodeID = e.id
    }
}
