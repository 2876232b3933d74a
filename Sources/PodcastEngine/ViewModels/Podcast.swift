import Foundation
import PodcastFeeds
import PodcastStore

/// A snapshot of one subscribed feed as the views show it: a row of `LibraryViewModel`
/// (`observable(id:)` gives an `Observable<Podcast>` of one feed on demand).
public struct Podcast: Equatable, Sendable, Identifiable {
    /// Where a feed is in its poll cycle.
    public enum Status: String, Sendable, Equatable {
        /// Not polled yet in this run.
        case waiting
        /// A request is in flight.
        case polling
        /// The last poll succeeded.
        case ok
        /// The last poll failed transiently (network, 5xx); retrying with backoff.
        case backingOff = "backing-off"
        /// The last poll got a 404 or another 4xx; still retried with backoff.
        case failing
        /// The feed answered 410 Gone and is no longer polled.
        case disabled

        /// The status word for a feed's stored health (`list`'s vocabulary: `ok`,
        /// `backing-off`, `failing`, `disabled`).
        public init(_ health: PollPolicy.Health) {
            switch health {
            case .ok: self = .ok
            case .backingOff: self = .backingOff
            case .failing: self = .failing
            case .disabled: self = .disabled
            }
        }
    }

    /// The store's feed id; stable across URL moves.
    public var id: Int64
    /// The feed's current URL.
    public var url: String
    /// The display title (user's, else the feed's); `nil` before the first successful poll.
    public var title: String?
    /// The poll status.
    public var status: Status
    /// When the feed was last checked (wall clock); `nil` if never.
    public var lastCheck: Date?
    /// When it is polled next; `nil` when disabled or unknown.
    public var nextPoll: Date?
    /// Episodes announced as new since the daemon started.
    public var newCount: Int
    /// The last poll's error, `nil` after a success.
    public var lastError: String?
    /// Why the hook failed for this feed's latest announcement after every retry
    /// (`FeedRecord.hookError`); `nil` when it succeeded or none failed.
    public var hookError: String? = nil
    /// The soonest hook attempt still owed to one of this feed's episodes (a retry waiting out
    /// its backoff, or one cut by a shutdown), as `list` shows it; `nil` when none is owed.
    public var hookRetry: PendingHookRetry? = nil
    /// How many of this feed's episodes owe a hook attempt (0 when `hookRetry` is `nil`).
    public var hookRetriesOwed: Int = 0

    /// A snapshot.
    public init(
        id: Int64, url: String, title: String? = nil, status: Status = .waiting, lastCheck: Date? = nil,
        nextPoll: Date? = nil, newCount: Int = 0, lastError: String? = nil
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.status = status
        self.lastCheck = lastCheck
        self.nextPoll = nextPoll
        self.newCount = newCount
        self.lastError = lastError
    }

    /// `title`, else `url`.
    public var displayTitle: String { title ?? MaskedURL.string(url) }

    /// How messages name the feed: `Title <URL>`, or just the URL when it has no title.
    public var label: String { title.map { "\($0) <\(MaskedURL.string(url))>" } ?? MaskedURL.string(url) }

    /// `true` for `backingOff`, `failing` and `disabled`.
    public var isFailing: Bool { status == .backingOff || status == .failing || status == .disabled }
}
