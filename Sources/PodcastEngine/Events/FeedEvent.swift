import Foundation
import PodcastFeeds

/// Something the daemon reports: on a non-terminal stdout each one becomes one JSON line
/// (`FeedEvent.jsonLine`), and each `.newEpisode` runs the `--hook`.
public enum FeedEvent: Equatable, Sendable {
    /// An episode seen for the first time and announced.
    case newEpisode(EpisodeAnnouncement)
    /// A poll failed.
    case feedError(FeedErrorReport)
    /// The feed's stored URL changed (permanent redirect or `itunes:new-feed-url`).
    case feedMoved(FeedMoveReport)
    /// A poll succeeded (`notModified` for a 304).
    case feedUpdated(FeedUpdateReport)
    /// A poll succeeded but something was off (a malformed document read in recovery mode, a
    /// duplicate guid); reported once until it changes, not on every poll.
    case feedWarning(FeedWarningReport)
    /// A `--hook` attempt failed: a retry follows, it gave up, or it was killed at shutdown.
    case hookFailed(HookFailureReport)
    /// A download started, progressed, finished or failed (`run --download`).
    case download(DownloadEvent)

    /// When it happened (wall clock).
    public var time: Date {
        switch self {
        case .newEpisode(let e): return e.time
        case .feedError(let e): return e.time
        case .feedMoved(let e): return e.time
        case .feedUpdated(let e): return e.time
        case .feedWarning(let e): return e.time
        case .hookFailed(let e): return e.time
        case .download(let e): return e.time
        }
    }

    /// The `event` key of the JSON line.
    public var kind: String {
        switch self {
        case .newEpisode: return "new_episode"
        case .feedError: return "feed_error"
        case .feedMoved: return "feed_moved"
        case .feedUpdated: return "feed_updated"
        case .feedWarning: return "feed_warning"
        case .hookFailed: return "hook_failed"
        case .download(let e): return e.kind.rawValue
        }
    }

    /// The event as a JSON object with this exact key order (absent values are `null`, times are
    /// ISO 8601 UTC, durations seconds, lengths bytes):
    /// - `new_episode`: `event, time, feed_url, podcast_title, episode_title, episode_guid,
    ///   episode_url` (primary enclosure), `episode_link, published, duration, mime_type, length`
    /// - `feed_error`: `event, time, feed_url, podcast_title, http_status, error, status`
    ///   (`backing-off`, `failing`, `disabled`), `failures, next_poll`
    /// - `feed_moved`: `event, time, from, to, reason` (`301`, `308`, `itunes:new-feed-url`...)
    /// - `feed_updated`: `event, time, feed_url, podcast_title, new_episodes, not_modified,
    ///   next_poll`
    /// - `feed_warning`: `event, time, feed_url, podcast_title, message`
    /// - `hook_failed`: `event, time, feed_url, podcast_title, episode_title, episode_guid,
    ///   error, attempt, attempts, retry_at, gave_up` (see `HookFailureReport`)
    /// - `download_started`, `download_progress`, `download_finished`, `download_failed`: see
    ///   `DownloadEvent`
    public var json: OrderedJSON {
        var members: [(String, OrderedJSON)] = [("event", .string(kind)), ("time", .date(time))]
        switch self {
        case .newEpisode(let e):
            members += [
                ("feed_url", .string(MaskedURL.string(e.feedURL))), ("podcast_title", .string(e.podcastTitle)),
                ("episode_title", .string(e.title)), ("episode_guid", .string(e.guid.map(MaskedURL.string))),
                ("episode_url", .string(e.url.map(MaskedURL.string))),
                ("episode_link", .string(e.link.map(MaskedURL.string))),
                ("published", .date(e.published)), ("duration", .number(e.duration)),
                ("mime_type", .string(e.mimeType)), ("length", .int(e.length)),
            ]
        case .feedError(let e):
            members += [
                ("feed_url", .string(MaskedURL.string(e.feedURL))), ("podcast_title", .string(e.podcastTitle)),
                ("http_status", .int(e.httpStatus)), ("error", .string(e.message)),
                ("status", .string(e.health.rawValue)), ("failures", .int(e.consecutiveFailures)),
                ("next_poll", .date(e.nextPoll)),
            ]
        case .feedMoved(let e):
            members += [
                ("from", .string(MaskedURL.string(e.from))), ("to", .string(MaskedURL.string(e.to))),
                ("reason", .string(e.reason)),
            ]
        case .feedUpdated(let e):
            members += [
                ("feed_url", .string(MaskedURL.string(e.feedURL))), ("podcast_title", .string(e.podcastTitle)),
                ("new_episodes", .int(e.newEpisodes)), ("not_modified", .bool(e.notModified)),
                ("next_poll", .date(e.nextPoll)),
            ]
        case .feedWarning(let e):
            members += [
                ("feed_url", .string(MaskedURL.string(e.feedURL))), ("podcast_title", .string(e.podcastTitle)),
                ("message", .string(e.message)),
            ]
        case .hookFailed(let e):
            members += [
                ("feed_url", .string(MaskedURL.string(e.episode.feedURL))),
                ("podcast_title", .string(e.episode.podcastTitle)), ("episode_title", .string(e.episode.title)),
                ("episode_guid", .string(e.episode.guid.map(MaskedURL.string))), ("error", .string(e.error)),
                ("attempt", .int(e.attempt)),
                ("attempts", .int(e.attempts)), ("retry_at", .date(e.retryAt)), ("gave_up", .bool(e.gaveUp)),
            ]
        case .download(let e):
            members += e.members
        }
        return .object(members)
    }

    /// `json` serialised, plus a newline: one line of the JSON-lines output.
    public var jsonLine: String { json.serialized + "\n" }
}

/// A new episode, flattened for output and hooks.
public struct EpisodeAnnouncement: Equatable, Sendable {
    /// When it was found.
    public var time: Date
    /// The feed's URL (as stored, after any move).
    public var feedURL: String
    /// The podcast's display title.
    public var podcastTitle: String?
    /// The episode's title.
    public var title: String?
    /// The episode's guid.
    public var guid: String?
    /// The primary enclosure's URL (what to download).
    public var url: String?
    /// The episode's web page.
    public var link: String?
    /// Its publication date; `nil` when unknown.
    public var published: Date?
    /// Its duration in seconds.
    public var duration: Double?
    /// The primary enclosure's MIME type.
    public var mimeType: String?
    /// The primary enclosure's declared size in bytes.
    public var length: Int64?
    /// The store's id of the feed (so a hook's outcome can be recorded on it); `nil` when the
    /// announcement does not come from a stored feed. Bookkeeping only: `==` ignores it, as
    /// the outputs (JSON line, hook environment) do.
    public var feedID: Int64? = nil
    /// The store's id of the episode (so a hook retry owed to it can be persisted); `nil` when
    /// the announcement does not come from the store. Bookkeeping only, like `feedID`.
    public var episodeID: Int64? = nil
    /// The downloaded file, for a hook run on `downloaded` (`EPISODE_FILE`); `nil` for a new
    /// episode. Bookkeeping only, like `feedID`: `==` ignores it.
    public var file: String? = nil

    /// Equal when every announced field is (`feedID`, `episodeID` and `file` aside).
    public static func == (a: EpisodeAnnouncement, b: EpisodeAnnouncement) -> Bool {
        a.time == b.time && a.feedURL == b.feedURL && a.podcastTitle == b.podcastTitle && a.title == b.title
            && a.guid == b.guid && a.url == b.url && a.link == b.link && a.published == b.published
            && a.duration == b.duration && a.mimeType == b.mimeType && a.length == b.length
    }

    /// An announcement.
    public init(
        time: Date, feedURL: String, podcastTitle: String?, title: String?, guid: String?, url: String?,
        link: String? = nil, published: Date? = nil, duration: Double? = nil, mimeType: String? = nil,
        length: Int64? = nil
    ) {
        self.time = time
        self.feedURL = feedURL
        self.podcastTitle = podcastTitle
        self.title = title
        self.guid = guid
        self.url = url
        self.link = link
        self.published = published
        self.duration = duration
        self.mimeType = mimeType
        self.length = length
    }

    /// The announcement of `episode` from the feed at `feedURL`.
    public init(time: Date, feedURL: String, podcastTitle: String?, episode: Episode) {
        let enclosure = episode.primaryEnclosure
        self.init(
            time: time, feedURL: feedURL, podcastTitle: podcastTitle, title: episode.title, guid: episode.guid,
            url: enclosure?.url, link: episode.link, published: episode.published, duration: episode.duration,
            mimeType: enclosure?.mimeType, length: enclosure?.length)
    }
}

/// A failed poll.
public struct FeedErrorReport: Equatable, Sendable {
    /// When the poll ended.
    public var time: Date
    /// The feed's URL.
    public var feedURL: String
    /// The podcast's display title.
    public var podcastTitle: String?
    /// The HTTP status, `nil` for network errors and unparseable bodies.
    public var httpStatus: Int?
    /// What went wrong, for humans.
    public var message: String
    /// The scheduling health after this failure.
    public var health: PollPolicy.Health
    /// Consecutive failures including this one.
    public var consecutiveFailures: Int
    /// When the feed is polled again; `nil` when disabled.
    public var nextPoll: Date?

    /// A failure report.
    public init(
        time: Date, feedURL: String, podcastTitle: String?, httpStatus: Int?, message: String,
        health: PollPolicy.Health, consecutiveFailures: Int, nextPoll: Date?
    ) {
        self.time = time
        self.feedURL = feedURL
        self.podcastTitle = podcastTitle
        self.httpStatus = httpStatus
        self.message = message
        self.health = health
        self.consecutiveFailures = consecutiveFailures
        self.nextPoll = nextPoll
    }
}

/// A warning about a feed that was otherwise read.
public struct FeedWarningReport: Equatable, Sendable {
    /// When the poll ended.
    public var time: Date
    /// The feed's URL.
    public var feedURL: String
    /// The podcast's title (the user's, else the channel's); `nil` when it has none.
    public var podcastTitle: String?
    /// What is wrong, e.g. "the feed is not well-formed; kept the 2 items recovered, deleted
    /// nothing: XML error at line 1: …".
    public var message: String

    /// A warning report.
    public init(time: Date, feedURL: String, podcastTitle: String?, message: String) {
        self.time = time
        self.feedURL = feedURL
        self.podcastTitle = podcastTitle
        self.message = message
    }
}

/// A feed URL change.
public struct FeedMoveReport: Equatable, Sendable {
    /// When it was applied.
    public var time: Date
    /// The old URL.
    public var from: String
    /// The new URL.
    public var to: String
    /// Why: the HTTP status (`"301"`, `"308"`) or `"itunes:new-feed-url"`.
    public var reason: String

    /// A move report.
    public init(time: Date, from: String, to: String, reason: String) {
        self.time = time
        self.from = from
        self.to = to
        self.reason = reason
    }
}

/// A successful poll.
public struct FeedUpdateReport: Equatable, Sendable {
    /// When the poll ended.
    public var time: Date
    /// The feed's URL.
    public var feedURL: String
    /// The podcast's display title.
    public var podcastTitle: String?
    /// How many episodes were announced as new.
    public var newEpisodes: Int
    /// `true` for a `304 Not Modified`.
    public var notModified: Bool
    /// When the feed is polled again.
    public var nextPoll: Date?

    /// An update report.
    public init(
        time: Date, feedURL: String, podcastTitle: String?, newEpisodes: Int, notModified: Bool, nextPoll: Date?
    ) {
        self.time = time
        self.feedURL = feedURL
        self.podcastTitle = podcastTitle
        self.newEpisodes = newEpisodes
        self.notModified = notModified
        self.nextPoll = nextPoll
    }
}
