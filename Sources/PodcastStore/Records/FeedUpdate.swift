import Foundation
import PodcastFeeds

/// What one poll of a feed produced, ready for `FeedStore.apply(update:)`.
public struct FeedUpdate: Sendable {
    /// How the poll ended.
    public enum Outcome: Sendable {
        /// A full response that parsed (perhaps degraded: see `ParsedFeed.isWellFormed`), with the
        /// response's validators (`ETag`, `Last-Modified`; `nil` when absent).
        case fetched(ParsedFeed, etag: String?, lastModified: String?)
        /// `304 Not Modified`: nothing changed.
        case notModified
        /// The poll failed: a network error, an HTTP error status or an unparseable body.
        case failed(FeedFailure)
    }

    /// The feed polled.
    public var feedID: Int64
    /// How the poll ended.
    public var outcome: Outcome
    /// Where the fetcher's leading run of 301/308 redirects ended and the first hop's status,
    /// exactly as the engine's fetcher reports it (`FetchResponse.permanentRedirect`,
    /// `FetchError.permanentRedirect`); `nil` when there was none. Applied for any outcome.
    public var permanentRedirect: PermanentRedirect?
    /// When the poll happened (wall clock); stored as `last_check`, and `first_seen` of new episodes.
    public var checkedAt: Date
    /// When the poller wants to check next (computed by the poller: interval, jitter, backoff);
    /// `nil` leaves the stored value.
    public var nextPoll: Date?

    /// An update for feed `feedID`.
    public init(
        feedID: Int64, outcome: Outcome, permanentRedirect: PermanentRedirect? = nil,
        checkedAt: Date = Date(), nextPoll: Date? = nil
    ) {
        self.feedID = feedID
        self.outcome = outcome
        self.permanentRedirect = permanentRedirect
        self.checkedAt = checkedAt
        self.nextPoll = nextPoll
    }
}

/// Why a poll failed.
public struct FeedFailure: Sendable, Equatable, Error, CustomStringConvertible {
    /// The HTTP status when the server answered with an error (404, 410, 500...); `nil` for
    /// network errors and unparseable bodies.
    public var httpStatus: Int?
    /// A human-readable explanation, stored as the feed's `lastError`.
    public var message: String

    /// A failure with an optional HTTP status.
    public init(httpStatus: Int? = nil, message: String) {
        self.httpStatus = httpStatus
        self.message = message
    }

    /// `message`.
    public var description: String { message }
}

/// What `FeedStore.apply(update:)` did.
public struct FeedUpdateResult: Sendable, Equatable {
    /// The feed after the update.
    public var feed: FeedRecord
    /// Episodes stored for the first time by this update, in document order.
    public var newEpisodes: [StoredEpisode]
    /// The subset of `newEpisodes` announced as new, newest first: all of them, except on a
    /// feed's first sync, where only the newest `FeedStore.firstSyncAnnounceLimit`.
    public var announced: [StoredEpisode]
    /// URL changes applied, in order (a redirect, then `itunes:new-feed-url`).
    public var moves: [FeedMove]
    /// Things worth telling the user: duplicate identities, skipped items of a degraded parse,
    /// moves refused because the target is already subscribed.
    public var warnings: [String]
}
