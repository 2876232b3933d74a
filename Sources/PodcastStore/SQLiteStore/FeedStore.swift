import Foundation
import PodcastFeeds

/// podcast-watch's persistent state: subscribed feeds, their URL history and their episodes, in
/// one SQLite file (WAL mode).
///
/// Not thread-safe: use an instance from one thread (the daemon's loop thread). Every method
/// throws `StoreError`. Each `apply(update:)` is one transaction, so a killed process leaves
/// either the whole update or none of it.
///
/// Durability: the connection runs WAL with `PRAGMA synchronous=NORMAL`, so a commit appends to
/// the write-ahead log without an `fdatasync`; the log is synced at checkpoints. A committed
/// transaction survives the process crashing or being killed (the log is in the OS page cache,
/// and the next open replays it). Only a power loss or kernel crash can lose the most recent
/// commits, never corrupt the file: the store then reopens as it was a few updates earlier and
/// the daemon polls those feeds again (their announcements may repeat, still at least once).
/// In exchange a poll costs no disk flush, which at thousands of feeds per cycle dominated the
/// time of a 304 poll.
public final class FeedStore {
    /// The connection, for tests and tools that need raw SQL.
    public let database: Database
    /// How many episodes the first successful sync of a feed announces (the newest ones); the
    /// rest are stored silently. Default 3.
    public var firstSyncAnnounceLimit: Int = 3

    /// Opens or creates the store at `path` and migrates its schema. The parent directory must
    /// exist. Throws `StoreError.notADatabase` (file untouched) or `.schemaTooNew`.
    ///
    /// Throws `StoreError.foreignDatabase` (file untouched) for an SQLite file of another program.
    public convenience init(path: String) throws {
        try self.init(database: Database(path: path, owner: FeedStore.checkOwnership))
    }

    /// The `PRAGMA application_id` of a podcast-watch database: "PdWt" in ASCII.
    public static let applicationID: Int32 = 0x5064_5774

    /// Accepts an empty file, one marked with `applicationID`, or one written before the mark
    /// existed (application_id 0, user_version ≥ 1 and a `feeds` table); refuses anything else.
    static func checkOwnership(_ database: Database) throws {
        let id = try database.scalarInt("PRAGMA application_id") ?? 0
        if id == Int64(applicationID) { return }
        if id != 0 {
            throw StoreError.foreignDatabase(path: database.path, reason: String(format: "application_id 0x%08x", id))
        }
        let tables =
            try database.scalarInt(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") ?? 0
        if tables == 0 { return }
        let version = try database.scalarInt("PRAGMA user_version") ?? 0
        let feeds =
            try database.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'feeds'") ?? 0
        if version >= 1 && feeds == 1 { return }
        throw StoreError.foreignDatabase(
            path: database.path,
            reason: tables == 1
                ? "it has 1 table that is not podcast-watch's" : "it has \(tables) tables that are not podcast-watch's")
    }

    /// Uses an open connection and migrates its schema.
    public init(database: Database) throws {
        self.database = database
        // See "Durability" above: durable against process crashes, not power loss.
        try database.execute("PRAGMA synchronous=NORMAL")
        try database.migrate(StoreSchema.migrations)
        if try database.scalarInt("PRAGMA application_id") != Int64(FeedStore.applicationID) {
            try database.execute("PRAGMA application_id = \(FeedStore.applicationID)")
        }
    }

    // MARK: Subscriptions

    /// Subscribes to `url` (normalised by `FeedLocation.normalize`), with an optional user title and poll interval in
    /// seconds (`nil`: the default, stored as NULL; clamped to 1 s ... `FeedRecord.maximumIntervalSeconds`). `added` is the subscription time. Throws `.invalidURL` (also for a URL whose credentials are masked, `MaskedURL.isMasked`), or `.alreadySubscribed`
    /// when the normalized URL is already a feed.
    @discardableResult
    public func add(url: String, title: String? = nil, intervalSeconds: Int? = nil, added: Date = Date()) throws
        -> FeedRecord
    {
        let normalized = try FeedStore.canonicalURL(url)
        if MaskedURL.isMasked(url) || MaskedURL.isMasked(normalized) {
            throw StoreError.invalidURL(
                url,
                reason:
                    "its credentials are masked (`***`, copied from masked output such as a dashboard export without the token); `podcast-watch export` writes the real URLs"
            )
        }
        if let existing = try feed(url: normalized) {
            throw StoreError.alreadySubscribed(url: normalized, id: existing.id)
        }
        let interval = intervalSeconds.map { Int64(min(max(1, $0), FeedRecord.maximumIntervalSeconds)) }
        let cleanTitle = EpisodeIdentity.nonBlank(title)
        try database.run(
            // The id above every id ever given (schema v4's high-water mark): never a removed one.
            """
            INSERT INTO feeds (id, url, title, added, interval_seconds)
            VALUES ((SELECT high + 1 FROM feed_id_high_water), ?1, ?2, ?3, ?4)
            """,
            .text(normalized), SQLValue(cleanTitle), .date(added), SQLValue(interval))
        let id = database.lastInsertRowID
        guard let record = try feed(id: id) else { throw StoreError.noSuchFeed(String(id)) }
        return record
    }

    /// Unsubscribes the feed that `key` names: a decimal id, else a URL (normalized the way
    /// `add` does). Its episodes and URL history go with it. Returns the removed record; throws
    /// `.noSuchFeed` when nothing matches.
    @discardableResult
    public func remove(_ key: String) throws -> FeedRecord {
        guard let record = try feed(matching: key) else { throw StoreError.noSuchFeed(key) }
        try database.run("DELETE FROM feeds WHERE id = ?1", .integer(record.id))
        return record
    }

    /// Unsubscribes feed `id`; throws `.noSuchFeed` if there is none.
    @discardableResult
    public func remove(id: Int64) throws -> FeedRecord {
        try remove(String(id))
    }

    /// Every feed, in subscription order (by id).
    public func feeds() throws -> [FeedRecord] {
        let statement = try database.prepare("SELECT \(FeedStore.feedColumns) FROM feeds ORDER BY id")
        var result: [FeedRecord] = []
        while try statement.step() { result.append(FeedStore.readFeed(statement)) }
        return result
    }

    /// Calls `body` with every feed, in subscription order (by id), one row at a time: what
    /// `feeds()` returns without holding every record at once (the daemon's start at 100,000
    /// feeds). `body` must not write to the store; an error it throws ends the read and is
    /// rethrown.
    public func forEachFeed(_ body: (FeedRecord) throws -> Void) throws {
        let statement = try database.prepare("SELECT \(FeedStore.feedColumns) FROM feeds ORDER BY id")
        while try statement.step() { try body(FeedStore.readFeed(statement)) }
    }

    /// Enabled feeds whose `nextPoll` is unset or not after `date`, soonest first (unset first),
    /// then by id: what the poller should fetch now.
    public func dueFeeds(at date: Date) throws -> [FeedRecord] {
        let statement = try database.prepare(
            "SELECT \(FeedStore.feedColumns) FROM feeds WHERE enabled AND (next_poll IS NULL OR next_poll <= ?1) ORDER BY next_poll NULLS FIRST, id",
            .date(date))
        var result: [FeedRecord] = []
        while try statement.step() { result.append(FeedStore.readFeed(statement)) }
        return result
    }

    /// The feed with row id `id`, or `nil`.
    public func feed(id: Int64) throws -> FeedRecord? {
        let statement = try database.prepare("SELECT \(FeedStore.feedColumns) FROM feeds WHERE id = ?1", .integer(id))
        return try statement.step() ? FeedStore.readFeed(statement) : nil
    }

    /// The feed whose current URL is exactly `url`, or `nil`.
    public func feed(url: String) throws -> FeedRecord? {
        let statement = try database.prepare("SELECT \(FeedStore.feedColumns) FROM feeds WHERE url = ?1", .text(url))
        return try statement.step() ? FeedStore.readFeed(statement) : nil
    }

    /// The feed that `key` names: a decimal id, else `feed(anyURL:)`; `nil` when none matches.
    public func feed(matching key: String) throws -> FeedRecord? {
        let trimmed = key.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = Int64(trimmed), let record = try feed(id: id) { return record }
        return try feed(anyURL: trimmed)
    }

    /// The feed known by `url`: its current URL as given, else normalized as `add` does, else a
    /// URL it had before a move (301/308, `itunes:new-feed-url`), as given or normalized, the most
    /// recent move first. Never reads `url` as an id.
    public func feed(anyURL url: String) throws -> FeedRecord? {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let normalized = try? FeedStore.canonicalURL(trimmed)
        if let record = try feed(url: trimmed) { return record }
        if let normalized, let record = try feed(url: normalized) { return record }
        for candidate in [trimmed, normalized].compactMap({ $0 }) {
            let statement = try database.prepare(
                "SELECT feed_id FROM feed_url_history WHERE old_url = ?1 ORDER BY id DESC LIMIT 1", .text(candidate))
            if try statement.step(), let id = statement.int64(0), let record = try feed(id: id) { return record }
        }
        return nil
    }

    /// Enables or disables polling of feed `id` (`podcast-watch enable` / `disable`). Enabling
    /// a feed that was off makes it due at once (`next_poll` NULL); enabling a `gone` feed (a 410)
    /// also sets it back to `ok` with no failures counted, so its backoff starts afresh. Its
    /// episodes and history are kept either way. Throws `.noSuchFeed` when there is no feed `id`.
    public func setEnabled(_ enabled: Bool, id: Int64) throws {
        try requireChange(
            database.run(
                """
                UPDATE feeds SET
                    next_poll = CASE WHEN ?1 AND NOT enabled THEN NULL ELSE next_poll END,
                    failure_count = CASE WHEN ?1 AND status = 'gone' THEN 0 ELSE failure_count END,
                    status = CASE WHEN ?1 AND status = 'gone' THEN 'ok' ELSE status END,
                    enabled = ?1
                WHERE id = ?2
                """,
                .integer(enabled ? 1 : 0), .integer(id)), id)
    }

    /// Records the outcome of the hook for feed `id`'s latest announcement: `error` after its
    /// last retry failed, `nil` once a hook run succeeded. Throws `.noSuchFeed` when there is
    /// no feed `id` (removed while its hook ran: the caller may ignore that).
    public func setHookError(_ error: String?, id: Int64) throws {
        try requireChange(
            database.run("UPDATE feeds SET hook_error = ?1 WHERE id = ?2", SQLValue(error), .integer(id)), id)
    }

    /// Records feed `id`'s channel title as a fetch before its first poll found it (`add`
    /// checks the feed), so lists show it before the daemon's first poll; each successful poll
    /// replaces it. A blank title changes nothing. Throws `.noSuchFeed` when there is no feed `id`.
    public func setFeedTitle(_ title: String?, id: Int64) throws {
        guard let clean = EpisodeIdentity.nonBlank(title) else { return }
        try requireChange(
            database.run("UPDATE feeds SET feed_title = ?1 WHERE id = ?2", .text(clean), .integer(id)), id)
    }

    /// Sets feed `id`'s poll interval, in seconds (clamped to 1 s ... `FeedRecord.maximumIntervalSeconds`); `nil` goes back to the default.
    public func setInterval(seconds: Int?, id: Int64) throws {
        try requireChange(
            database.run(
                "UPDATE feeds SET interval_seconds = ?1 WHERE id = ?2",
                SQLValue(seconds.map { Int64(min(max(1, $0), FeedRecord.maximumIntervalSeconds)) }), .integer(id)), id)
    }

    /// Sets when feed `id` should next be polled (`nil`: as soon as possible).
    public func setNextPoll(_ date: Date?, id: Int64) throws {
        try requireChange(database.run("UPDATE feeds SET next_poll = ?1 WHERE id = ?2", .date(date), .integer(id)), id)
    }

    /// Sets feed `id`'s new-episode count back to 0 (the user has seen them).
    public func resetNewEpisodeCount(id: Int64) throws {
        try requireChange(database.run("UPDATE feeds SET new_episode_count = 0 WHERE id = ?1", .integer(id)), id)
    }

    /// The URL changes of feed `id`, oldest first.
    public func urlHistory(feedID id: Int64) throws -> [FeedMove] {
        let statement = try database.prepare(
            "SELECT feed_id, old_url, new_url, changed_at, reason FROM feed_url_history WHERE feed_id = ?1 ORDER BY id",
            .integer(id))
        var moves: [FeedMove] = []
        while try statement.step() {
            moves.append(
                FeedMove(
                    feedID: statement.int64(0) ?? id, from: statement.string(1) ?? "", to: statement.string(2) ?? "",
                    at: statement.date(3) ?? Date(timeIntervalSince1970: 0),
                    reason: FeedMove.Reason(rawValue: statement.string(4) ?? "")))
        }
        return moves
    }

    // MARK: Episodes

    /// Feed `feedID`'s episodes, newest first (unknown dates last, then in the order first seen).
    public func episodes(feedID: Int64) throws -> [StoredEpisode] {
        let statement = try database.prepare(
            "SELECT \(FeedStore.episodeColumns) FROM episodes WHERE feed_id = ?1 ORDER BY published DESC NULLS LAST, id",
            .integer(feedID))
        return try FeedStore.readEpisodes(statement)
    }

    /// The `limit` most recent episodes across all feeds, newest first (by date, unknown dates
    /// last, then most recently seen).
    public func recentEpisodes(limit: Int) throws -> [StoredEpisode] {
        let statement = try database.prepare(
            "SELECT \(FeedStore.episodeColumns) FROM episodes ORDER BY published DESC NULLS LAST, first_seen DESC, id DESC LIMIT ?1",
            .integer(Int64(max(0, limit))))
        return try FeedStore.readEpisodes(statement)
    }

    /// Announced episodes whose delivery was never confirmed (the process died between the
    /// commit and the output or hook), oldest announcement first: by feed id, then in the order
    /// the daemon reports a poll's announcements (undated first, then oldest date first).
    public func pendingAnnouncements() throws -> [StoredEpisode] {
        let statement = try database.prepare(
            "SELECT \(FeedStore.episodeColumns) FROM episodes WHERE announce_pending ORDER BY feed_id, published NULLS FIRST, id DESC"
        )
        return try FeedStore.readEpisodes(statement)
    }

    /// Confirms that the announcements of episodes `ids` were delivered (JSON line or view
    /// written, hook started), in one transaction. Unknown ids are ignored.
    public func markAnnouncementsDelivered(_ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        try database.transaction {
            let statement = try database.prepare("UPDATE episodes SET announce_pending = 0 WHERE id = ?1")
            for id in ids {
                statement.reset()
                try statement.bind(.integer(id), at: 1)
                try statement.step()
            }
        }
    }

    /// How many episodes feed `feedID` has stored.
    public func episodeCount(feedID: Int64) throws -> Int {
        Int(try database.scalarInt("SELECT count(*) FROM episodes WHERE feed_id = ?1", .integer(feedID)) ?? 0)
    }

    // MARK: URLs

    /// `FeedLocation.normalize` (against the process's current directory and `$HOME`), its
    /// error as `StoreError.invalidURL`: the one canonical form subscriptions are keyed by.
    static func canonicalURL(_ raw: String) throws -> String {
        do {
            return try FeedLocation.normalize(raw)
        } catch {
            throw StoreError.invalidURL(raw, reason: error.reason)
        }
    }

    // MARK: Rows

    static let feedColumns = """
        id, url, title, feed_title, link, image_url, added, interval_seconds, enabled, etag, last_modified, \
        last_check, last_success, failure_count, last_error, last_http_status, next_poll, status, new_episode_count, hook_error
        """

    static func readFeed(_ s: Statement) -> FeedRecord {
        FeedRecord(
            id: s.int64(0) ?? 0, url: s.string(1) ?? "", title: s.string(2), feedTitle: s.string(3), link: s.string(4),
            imageURL: s.string(5), added: s.date(6) ?? Date(timeIntervalSince1970: 0), intervalSeconds: s.int(7),
            enabled: s.bool(8) ?? true, etag: s.string(9), lastModified: s.string(10), lastCheck: s.date(11),
            lastSuccess: s.date(12), failureCount: s.int(13) ?? 0, lastError: s.string(14), lastHTTPStatus: s.int(15),
            nextPoll: s.date(16), status: FeedStatus(rawValue: s.string(17) ?? "ok") ?? .ok,
            newEpisodeCount: s.int(18) ?? 0, hookError: s.string(19))
    }

    package static let episodeColumns = """
        id, feed_id, identity, guid, title, link, published, duration, description, enclosure_url, enclosure_type, \
        enclosure_length, enclosures_json, first_seen, announced, announce_pending
        """

    package static func readEpisodes(_ s: Statement) throws -> [StoredEpisode] {
        var result: [StoredEpisode] = []
        while try s.step() { result.append(readEpisode(s)) }
        return result
    }

    /// The episode in the current row of `s`, whose first columns are `episodeColumns`.
    package static func readEpisode(_ s: Statement) -> StoredEpisode {
        let enclosure = s.string(9).map { Enclosure(url: $0, length: s.int64(11), mimeType: s.string(10)) }
        let json = s.data(12) ?? Data("[]".utf8)
        let enclosures = (try? JSONDecoder().decode([Enclosure].self, from: json)) ?? enclosure.map { [$0] } ?? []
        return StoredEpisode(
            id: s.int64(0) ?? 0, feedID: s.int64(1) ?? 0, identity: s.string(2) ?? "", guid: s.string(3),
            title: s.string(4), link: s.string(5), published: s.date(6), duration: s.double(7),
            description: s.string(8), enclosure: enclosure, enclosures: enclosures,
            firstSeen: s.date(13) ?? Date(timeIntervalSince1970: 0), announced: s.bool(14) ?? false,
            announcementPending: s.bool(15) ?? false)
    }

    func requireChange(_ changed: Int, _ id: Int64) throws {
        if changed == 0 { throw StoreError.noSuchFeed(String(id)) }
    }
}

extension FeedStore: FeedStoring {
    /// The `downloads` table of this database (`DownloadLedger`).
    public var downloadLedger: any DownloadStoring { DownloadLedger(store: self) }
}
