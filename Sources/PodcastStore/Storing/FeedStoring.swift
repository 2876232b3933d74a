import Foundation

/// What the daemon's engine needs of a store: the subscriptions it polls, one transaction per
/// poll, the announcements still owed to an output, the hook attempts still owed, and the
/// downloads ledger. `FeedStore` (SQLite) is the implementation today; another database can be
/// added by conforming to this protocol, without touching the engine.
///
/// Semantics every implementation keeps (the SQLite store's tests pin them down):
/// - `apply(update:)` is atomic: the feed row, its new episodes, its URL moves and the
///   announcements it marks pending are committed together or not at all.
/// - An announcement returned by `apply(update:)` stays pending (`pendingAnnouncements()`) until
///   `markAnnouncementsDelivered(_:)`: delivery is at least once.
/// - Feed ids are never reused.
///
/// Threading: one thread at a time, the engine's loop thread in `run`. Every method that
/// throws throws `StoreError`.
public protocol FeedStoring: AnyObject {
    /// How many episodes a feed's first successful sync announces (the newest); the rest are
    /// stored silently.
    var firstSyncAnnounceLimit: Int { get set }

    /// Every subscription, in id order.
    func feeds() throws -> [FeedRecord]
    /// Calls `body` with each subscription in id order, without holding them all at once.
    func forEachFeed(_ body: (FeedRecord) throws -> Void) throws
    /// Subscription `id`, or `nil`.
    func feed(id: Int64) throws -> FeedRecord?

    /// Applies one poll's result in one transaction (see the type's rules) and says what changed.
    @discardableResult
    func apply(update: FeedUpdate) throws -> FeedUpdateResult

    /// The `limit` newest episodes over every feed (by first sight), newest first.
    func recentEpisodes(limit: Int) throws -> [StoredEpisode]
    /// Episodes announced but not yet confirmed delivered, oldest first.
    func pendingAnnouncements() throws -> [StoredEpisode]
    /// Confirms the announcements of the episodes with these row ids as delivered.
    func markAnnouncementsDelivered(_ ids: [Int64]) throws

    /// Records feed `id`'s hook outcome (`nil`: the last hook succeeded).
    func setHookError(_ error: String?, id: Int64) throws
    /// Keeps a hook attempt still owed, replacing one owed for the same episode.
    func saveHookRetry(_ retry: PendingHookRetry) throws
    /// The most attempts any owed hook may still make; owed ones beyond it are given up.
    func setHookRetryLimit(_ attempts: Int) throws
    /// Forgets the hook attempt owed for episode `episodeID`.
    func clearHookRetry(episodeID: Int64) throws
    /// Every hook attempt owed, soonest first, with its episode.
    func pendingHookRetries() throws -> [(retry: PendingHookRetry, episode: StoredEpisode)]
    /// The hook attempts feed `feedID` owes, soonest first.
    func pendingHookRetries(feedID: Int64) throws -> [PendingHookRetry]

    /// The downloads ledger kept in this store.
    var downloadLedger: any DownloadStoring { get }
}
