import Foundation
import PodcastFeeds

/// A feed's health, as shown to the user.
public enum FeedStatus: String, Sendable, Equatable, Codable {
    /// The last check succeeded (or none was made yet).
    case ok
    /// The last check failed (network error, HTTP error, 404, unparseable body).
    case failing
    /// The server answered 410 Gone; the feed is disabled.
    case gone
}

/// One subscribed feed as stored: its URL, metadata, validators and poll state.
/// All dates are wall-clock `Date`s stored as Unix seconds.
public struct FeedRecord: Sendable, Equatable, Identifiable {
    /// The longest poll interval a feed keeps, in seconds: 30 days. Longer ones, wherever they
    /// come from (OPML `pw:interval`, `add --interval`, a stored row), count as this
    /// (`PollPolicy.maximumIntervalSeconds` is this value).
    public static let maximumIntervalSeconds = 30 * 86_400

    /// The row id, stable for the life of the subscription.
    public var id: Int64
    /// The current URL in `FeedLocation.normalize` form (`http(s)://` or `file://`); it changes
    /// on a permanent redirect or `itunes:new-feed-url`.
    public var url: String
    /// The title the user (or OPML import) gave; `nil` if none.
    public var title: String?
    /// The channel's own title from the last successful parse.
    public var feedTitle: String?
    /// The channel's `link`.
    public var link: String?
    /// The channel's cover image URL.
    public var imageURL: String?
    /// When the feed was subscribed.
    public var added: Date
    /// The feed's own poll interval in seconds (`add --interval`); `nil` means the default:
    /// `run --interval` when given, else `PollPolicy.defaultInterval` (one hour).
    public var intervalSeconds: Int?
    /// False once disabled (by the user, or by a 410).
    public var enabled: Bool
    /// The last `ETag` received, sent back as `If-None-Match`; cleared after a failure so the
    /// next refresh is unconditional.
    public var etag: String?
    /// The last `Last-Modified` received, sent back as `If-Modified-Since`; cleared like `etag`.
    public var lastModified: String?
    /// When the feed was last checked, whatever the outcome.
    public var lastCheck: Date?
    /// When the last successful fetch (200 and parsed, or 304) happened.
    public var lastSuccess: Date?
    /// Consecutive failed checks (0 after a success).
    public var failureCount: Int
    /// The text of the last failure; `nil` after a success.
    public var lastError: String?
    /// The HTTP status of the last check, if it got that far.
    public var lastHTTPStatus: Int?
    /// When the poller should check next; `nil` means as soon as possible.
    public var nextPoll: Date?
    /// Health.
    public var status: FeedStatus
    /// New episodes announced since the count was last reset.
    public var newEpisodeCount: Int
    /// Why the hook failed for this feed's last announced episode, after every retry
    /// (`HookRunner.RetryPolicy`): "exited with status 1 (4 attempts)"; `nil` when the last hook
    /// run succeeded or none failed.
    public var hookError: String? = nil

    /// The user's title, else the channel's, else the URL.
    public var displayTitle: String { title ?? feedTitle ?? MaskedURL.string(url) }

    /// The user's title, else the channel's; `nil` when neither is known (JSON says `null`
    /// rather than repeating the URL).
    public var knownTitle: String? { title ?? feedTitle }

    /// How messages name the feed: `Title <URL>`, or just the URL when it has no title.
    public var label: String { knownTitle.map { "\($0) <\(MaskedURL.string(url))>" } ?? MaskedURL.string(url) }

    /// The feed's status in the one vocabulary of `list`, `list --json`, the terminal table and
    /// `feed_error` events (`FeedHealth`): `disabled` when not polled (410 Gone or turned
    /// off), `ok` after a success, else by the last HTTP status as `Health.afterFailure` rules
    /// (`failing` for 404 and other 4xx, `backing-off` for network errors, 5xx, 408, 429).
    public var health: FeedHealth {
        if !enabled || status == .gone { return .disabled }
        if status == .ok { return .ok }
        return FeedHealth.afterFailure(httpStatus: lastHTTPStatus) == .failing ? .failing : .backingOff
    }
}

/// One stored episode. Fields come from the parsed `Episode`; `identity` is its `EpisodeIdentity`
/// key.
public struct StoredEpisode: Sendable, Equatable, Identifiable {
    /// The row id.
    public var id: Int64
    /// The owning feed's id.
    public var feedID: Int64
    /// The `EpisodeIdentity.key` it is known by.
    public var identity: String
    /// The guid, if the item had one.
    public var guid: String?
    /// The title.
    public var title: String?
    /// The item's link.
    public var link: String?
    /// The publication date, `nil` when unknown.
    public var published: Date?
    /// Duration in seconds.
    public var duration: Double?
    /// Plain-text description.
    public var description: String?
    /// The primary enclosure (see `Episode.primaryEnclosure`), `nil` if none.
    public var enclosure: Enclosure?
    /// All enclosures in document order.
    public var enclosures: [Enclosure]
    /// When this program first saw the episode.
    public var firstSeen: Date
    /// True when it was announced as new (the first sync announces only the newest few).
    public var announced: Bool
    /// True from the moment it was announced (in the same transaction that stored it) until the
    /// daemon confirmed the announcement was delivered (`FeedStore.markAnnouncementsDelivered`).
    /// A pending announcement found at start-up is delivered again: at-least-once.
    public var announcementPending: Bool
}

/// A stored change of a feed's URL.
public struct FeedMove: Sendable, Equatable {
    /// Why the URL changed.
    public enum Reason: Sendable, Equatable {
        /// An HTTP permanent redirect; `status` is 301 or 308.
        case permanentRedirect(status: Int)
        /// The channel's `itunes:new-feed-url`.
        case newFeedURL
        /// The user's `add URL --replace`: the document at the new URL has the subscription's
        /// `podcast:guid` (`FeedStore.replaceURL(id:with:at:)`).
        case podcastGUID

        /// The stored form: `http-301`, `http-308`, `itunes:new-feed-url`, `podcast:guid`.
        public var rawValue: String {
            switch self {
            case .permanentRedirect(let status): return "http-\(status)"
            case .newFeedURL: return "itunes:new-feed-url"
            case .podcastGUID: return "podcast:guid"
            }
        }

        /// Parses the stored form; unknown text reads as a 301.
        public init(rawValue: String) {
            if rawValue == "itunes:new-feed-url" {
                self = .newFeedURL
            } else if rawValue == "podcast:guid" {
                self = .podcastGUID
            } else if rawValue.hasPrefix("http-"), let status = Int(rawValue.dropFirst(5)) {
                self = .permanentRedirect(status: status)
            } else {
                self = .permanentRedirect(status: 301)
            }
        }
    }

    /// The feed that moved.
    public var feedID: Int64
    /// The URL before.
    public var from: String
    /// The URL after.
    public var to: String
    /// When it moved.
    public var at: Date
    /// Why.
    public var reason: Reason
}
