import Foundation
import PodcastFeeds

/// A download's progress as reported on the JSON-lines output (`FeedEvent.download`).
///
/// Keys, in this order (absent values `null`, times ISO 8601 UTC, sizes bytes, rates bytes per
/// second):
/// - `download_started`: `event, time, feed_url, podcast_title, episode_title, episode_url, path,
///   resumed_from, total`
/// - `download_progress` (at most once a second per download): `event, time, feed_url,
///   podcast_title, episode_title, path, bytes, total, bytes_per_second`
/// - `download_finished`: `event, time, feed_url, podcast_title, episode_title, episode_url, path,
///   bytes, seconds`
/// - `download_failed`: `event, time, feed_url, podcast_title, episode_title, episode_url, path,
///   error, bytes, attempts, next_retry` (`null`: no further attempt)
public struct DownloadEvent: Equatable, Sendable {
    /// Which of the four events.
    public enum Kind: String, Sendable, Equatable {
        /// An attempt began (`resumedFrom` bytes were on disk already).
        case started = "download_started"
        /// Bytes so far.
        case progress = "download_progress"
        /// The file is complete at `path`.
        case finished = "download_finished"
        /// The attempt failed (`error`); the part file keeps `bytes`.
        case failed = "download_failed"
    }

    /// Which event.
    public var kind: Kind
    /// When (wall clock).
    public var time: Date
    /// The store's episode id.
    public var episodeID: Int64
    /// The feed's URL (credentials masked on output).
    public var feedURL: String?
    /// The podcast's title.
    public var podcastTitle: String?
    /// The episode's title.
    public var episodeTitle: String?
    /// The enclosure URL.
    public var episodeURL: String
    /// The final file's path.
    public var path: String
    /// Bytes on disk (started: resumed from; progress/finished/failed: so far).
    public var bytes: Int64
    /// The full size when known.
    public var total: Int64?
    /// Progress: the current rate in bytes per second.
    public var bytesPerSecond: Double?
    /// Finished: seconds the completing attempt took.
    public var seconds: Double?
    /// Failed: why.
    public var error: String?
    /// Failed: attempts so far.
    public var attempts: Int?
    /// Failed: when the next attempt starts (`nil`: none).
    public var nextRetry: Date?

    /// An event; the optional fields default to `nil`.
    public init(
        kind: Kind, time: Date, episodeID: Int64, feedURL: String?, podcastTitle: String?, episodeTitle: String?,
        episodeURL: String, path: String, bytes: Int64, total: Int64? = nil
    ) {
        self.kind = kind
        self.time = time
        self.episodeID = episodeID
        self.feedURL = feedURL
        self.podcastTitle = podcastTitle
        self.episodeTitle = episodeTitle
        self.episodeURL = episodeURL
        self.path = path
        self.bytes = bytes
        self.total = total
    }

    /// The JSON members after `event` and `time` (see the type's documentation).
    var members: [(String, OrderedJSON)] {
        var out: [(String, OrderedJSON)] = [
            ("feed_url", .string(feedURL.map { MaskedURL.string($0) })), ("podcast_title", .string(podcastTitle)),
            ("episode_title", .string(episodeTitle)),
        ]
        switch kind {
        case .started:
            out += [
                ("episode_url", .string(MaskedURL.string(episodeURL))), ("path", .string(path)),
                ("resumed_from", .int(bytes)), ("total", .int(total)),
            ]
        case .progress:
            out += [
                ("path", .string(path)), ("bytes", .int(bytes)), ("total", .int(total)),
                ("bytes_per_second", .number(bytesPerSecond.map { $0.rounded() })),
            ]
        case .finished:
            out += [
                ("episode_url", .string(MaskedURL.string(episodeURL))), ("path", .string(path)),
                ("bytes", .int(bytes)), ("seconds", .number(seconds.map { ($0 * 1000).rounded() / 1000 })),
            ]
        case .failed:
            out += [
                ("episode_url", .string(MaskedURL.string(episodeURL))), ("path", .string(path)),
                ("error", .string(error)), ("bytes", .int(bytes)), ("attempts", .int(attempts)),
                ("next_retry", .date(nextRetry)),
            ]
        }
        return out
    }
}
