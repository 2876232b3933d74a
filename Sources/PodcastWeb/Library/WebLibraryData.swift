import Foundation
import PodcastEngine
import PodcastStore

/// What the web view needs beyond the view models: stored episode counts per feed (kept in
/// memory and refreshed only for feeds whose poll finished, so `/api/feeds` over 2,000 feeds
/// makes no query) and the episode pages of `/api/episodes`.
///
/// Threading: the loop's thread (the store's thread) only.
public final class WebLibraryData {
    /// The view models shown.
    public let library: LibraryViewModel
    /// The store read (never written here).
    public let store: FeedStore
    private var counts: [Int64: Int] = [:]
    private var countedAt: [Int64: Date?] = [:]
    private var serialized: [Int64: (podcast: Podcast, count: Int, bytes: [UInt8])] = [:]
    /// Calls of `episodeCount` so far: one per feed row a view looked at (the tests count them).
    private(set) var episodeCountCalls = 0

    /// Data over `library` and `store`; loads every feed's episode count in one query.
    public init(library: LibraryViewModel, store: FeedStore) {
        self.library = library
        self.store = store
        if let statement = try? store.database.prepare("SELECT feed_id, count(*) FROM episodes GROUP BY feed_id") {
            while (try? statement.step()) == true {
                if let id = statement.int64(0) { counts[id] = statement.int(1) ?? 0 }
            }
        }
        for p in library.snapshots {
            counts[p.id] = counts[p.id] ?? 0  // no row in the GROUP BY: none stored
            countedAt[p.id] = p.lastCheck
        }
    }

    /// Stored episodes of feed `p`, re-counted (one indexed query) when its `lastCheck` moved
    /// since the last count: a poll finished, so episodes may have been stored.
    public func episodeCount(_ p: Podcast) -> Int {
        episodeCountCalls += 1
        if let seen = countedAt[p.id], seen == p.lastCheck, let count = counts[p.id] { return count }
        let count = (try? store.episodeCount(feedID: p.id)) ?? counts[p.id] ?? 0
        counts[p.id] = count
        countedAt[p.id] = p.lastCheck
        return count
    }

    /// A feed's JSON (`WebJSON.feed`) with its episode count.
    public func feedJSON(_ p: Podcast) -> OrderedJSON { WebJSON.feed(p, episodeCount: episodeCount(p)) }

    /// `feedJSON(p)` serialised, cached until the snapshot or its count changes: `/api/feeds`
    /// over 2,000 feeds copies bytes instead of serialising every feed on every request.
    public func feedBytes(_ p: Podcast) -> [UInt8] {
        let count = episodeCount(p)
        if let cached = serialized[p.id], cached.podcast == p, cached.count == count { return cached.bytes }
        let bytes = WebJSON.feed(p, episodeCount: count).utf8Bytes
        serialized[p.id] = (p, count, bytes)
        return bytes
    }

    /// Stored episode `id` and its show notes as stored (`Episode.showNotesHTML`: the
    /// sanitiser's output when this program wrote it; `nil` without any), or `nil` when there
    /// is no such episode. Two lookups by primary key (the show notes are read only here, never
    /// with the episode lists). Throws `StoreError`.
    public func episode(id: Int64) throws -> (episode: StoredEpisode, showNotesHTML: String?)? {
        let statement = try store.database.prepare(
            "SELECT \(FeedStore.episodeColumns) FROM episodes WHERE id = ?1", .integer(id))
        guard let episode = try FeedStore.readEpisodes(statement).first else { return nil }
        let notes = try store.database.prepare("SELECT show_notes_html FROM episodes WHERE id = ?1", .integer(id))
        return (episode, try notes.step() ? notes.string(0) : nil)
    }

    /// One page of stored episodes, newest first (by date, unknown dates last, then most
    /// recently seen): of feed `feedID` (all feeds when `nil`), first seen in a later
    /// millisecond than `since` (when given; milliseconds as `WebJSON.iso8601` shows them, so
    ///     /// the newest `first_seen` of a page, sent back as `since`, returns none of that page),
    /// skipping `offset`, at most `limit`. `hasMore` tells whether another page follows.
    /// Throws `StoreError`.
    public func episodes(feedID: Int64?, since: Date?, limit: Int, offset: Int) throws -> (
        episodes: [StoredEpisode], hasMore: Bool
    ) {
        let statement = try store.database.prepare(
            """
            SELECT \(FeedStore.episodeColumns) FROM episodes
            WHERE (?1 IS NULL OR feed_id = ?1) AND (?2 IS NULL OR CAST(first_seen * 1000 AS INTEGER) > ?2)
            ORDER BY published DESC NULLS LAST, first_seen DESC, id DESC LIMIT ?3 OFFSET ?4
            """,
            // `since` to the nearest millisecond: a parsed `.446` may be a hair below it as a Double.
            SQLValue(feedID), since.map { .integer(Int64(($0.timeIntervalSince1970 * 1000).rounded())) } ?? .null,
            .integer(Int64(limit + 1)), .integer(Int64(offset)))
        var rows = try FeedStore.readEpisodes(statement)
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        return (rows, hasMore)
    }
}
