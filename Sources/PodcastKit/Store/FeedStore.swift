import Foundation

/// podcast-watch's persistent state: subscribed feeds, their URL history and their episodes, in
/// one SQLite file (WAL mode).
///
/// Not thread-safe: use an instance from one thread (the daemon's loop thread). Every method
/// throws `StoreError`. Each `apply(update:)` is one transaction, so a killed process leaves
/// either the whole update or none of it.
public final class FeedStore {
    /// The connection, for tests and tools that need raw SQL.
    public let database: Database
    /// How many episodes the first successful sync of a feed announces (the newest ones); the
    /// rest are stored silently. Default 3.
    public var firstSyncAnnounceLimit: Int = 3
    /// The poll interval, in seconds, given to new subscriptions when `add` gets none. Default 3600.
    public var defaultIntervalSeconds: Int = 3600

    /// Opens or creates the store at `path` and migrates its schema. The parent directory must
    /// exist. Throws `StoreError.notADatabase` (file untouched) or `.schemaTooNew`.
    public convenience init(path: String) throws {
        try self.init(database: Database(path: path))
    }

    /// Uses an open connection and migrates its schema.
    public init(database: Database) throws {
        self.database = database
        try database.migrate(StoreSchema.migrations)
    }

    // MARK: Subscriptions

    /// Subscribes to `url` (see `normalizeURL`), with an optional user title and poll interval in
    /// seconds. `added` is the subscription time. Throws `.invalidURL`, or `.alreadySubscribed`
    /// when the normalized URL is already a feed.
    @discardableResult
    public func add(url: String, title: String? = nil, intervalSeconds: Int? = nil, added: Date = Date()) throws -> FeedRecord {
        let normalized = try FeedStore.normalizeURL(url)
        if let existing = try feed(url: normalized) {
            throw StoreError.alreadySubscribed(url: normalized, id: existing.id)
        }
        let interval = max(1, intervalSeconds ?? defaultIntervalSeconds)
        let cleanTitle = EpisodeIdentity.nonBlank(title)
        try database.run(
            "INSERT INTO feeds (url, title, added, interval_seconds) VALUES (?1, ?2, ?3, ?4)",
            .text(normalized), SQLValue(cleanTitle), .date(added), .integer(Int64(interval)))
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

    /// The feed that `key` names: a decimal id, else the URL as given, else the URL normalized
    /// as `add` does; `nil` when none matches.
    public func feed(matching key: String) throws -> FeedRecord? {
        let trimmed = key.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = Int64(trimmed), let record = try feed(id: id) { return record }
        if let record = try feed(url: trimmed) { return record }
        if let normalized = try? FeedStore.normalizeURL(trimmed) { return try feed(url: normalized) }
        return nil
    }

    /// Enables or disables polling of feed `id`. Re-enabling a `gone` feed sets it back to `ok`.
    public func setEnabled(_ enabled: Bool, id: Int64) throws {
        try requireChange(
            database.run(
                "UPDATE feeds SET enabled = ?1, status = CASE WHEN ?1 AND status = 'gone' THEN 'ok' ELSE status END WHERE id = ?2",
                .integer(enabled ? 1 : 0), .integer(id)), id)
    }

    /// Sets feed `id`'s poll interval, in seconds (at least 1).
    public func setInterval(seconds: Int, id: Int64) throws {
        try requireChange(
            database.run("UPDATE feeds SET interval_seconds = ?1 WHERE id = ?2", .integer(Int64(max(1, seconds))), .integer(id)), id)
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

    /// How many episodes feed `feedID` has stored.
    public func episodeCount(feedID: Int64) throws -> Int {
        Int(try database.scalarInt("SELECT count(*) FROM episodes WHERE feed_id = ?1", .integer(feedID)) ?? 0)
    }

    // MARK: URLs

    /// The canonical stored form of a subscription URL: trimmed; `http`, `https` and `file`
    /// accepted (scheme lower-cased); `feed://`, `itpc://`, `pcast://` mapped to `http://`
    /// (`feed:https://...` to the inner URL); anything without a scheme is a path, made absolute
    /// against the current directory. Throws `.invalidURL` for an empty string or another scheme.
    public static func normalizeURL(_ raw: String) throws -> String {
        let url = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !url.isEmpty else { throw StoreError.invalidURL(raw, reason: "empty") }
        guard let colon = url.firstIndex(of: ":"),
            url[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            url[..<colon].first?.isLetter == true, url.distance(from: url.startIndex, to: colon) > 1
        else {
            // A path (a one-letter "scheme" would be a Windows drive; treat it as a path too).
            let absolute = url.hasPrefix("/") ? url : FileManager.default.currentDirectoryPath + "/" + url
            return URL(fileURLWithPath: absolute).standardizedFileURL.path
        }
        let scheme = url[..<colon].lowercased()
        let rest = url[url.index(after: colon)...]
        switch scheme {
        case "http", "https", "file":
            guard rest.hasPrefix("//") || scheme == "file" else {
                throw StoreError.invalidURL(raw, reason: "expected \(scheme)://")
            }
            if scheme != "file" && rest.dropFirst(2).isEmpty {
                throw StoreError.invalidURL(raw, reason: "no host")
            }
            return scheme + ":" + rest
        case "feed", "itpc", "pcast":
            if rest.hasPrefix("//") { return "http:" + rest }
            return try normalizeURL(String(rest))
        default:
            throw StoreError.invalidURL(raw, reason: "unsupported scheme \"\(scheme)\" (use http, https, file or a path)")
        }
    }

    // MARK: Rows

    static let feedColumns = """
        id, url, title, feed_title, link, image_url, added, interval_seconds, enabled, etag, last_modified, \
        last_check, last_success, failure_count, last_error, last_http_status, next_poll, status, new_episode_count
        """

    static func readFeed(_ s: Statement) -> FeedRecord {
        FeedRecord(
            id: s.int64(0) ?? 0, url: s.string(1) ?? "", title: s.string(2), feedTitle: s.string(3), link: s.string(4),
            imageURL: s.string(5), added: s.date(6) ?? Date(timeIntervalSince1970: 0), intervalSeconds: s.int(7) ?? 3600,
            enabled: s.bool(8) ?? true, etag: s.string(9), lastModified: s.string(10), lastCheck: s.date(11),
            lastSuccess: s.date(12), failureCount: s.int(13) ?? 0, lastError: s.string(14), lastHTTPStatus: s.int(15),
            nextPoll: s.date(16), status: FeedStatus(rawValue: s.string(17) ?? "ok") ?? .ok,
            newEpisodeCount: s.int(18) ?? 0)
    }

    static let episodeColumns = """
        id, feed_id, identity, guid, title, link, published, duration, description, enclosure_url, enclosure_type, \
        enclosure_length, enclosures_json, first_seen, announced
        """

    static func readEpisodes(_ s: Statement) throws -> [StoredEpisode] {
        var result: [StoredEpisode] = []
        while try s.step() {
            let enclosure = s.string(9).map { Enclosure(url: $0, length: s.int64(11), mimeType: s.string(10)) }
            let json = s.data(12) ?? Data("[]".utf8)
            let enclosures = (try? JSONDecoder().decode([Enclosure].self, from: json)) ?? enclosure.map { [$0] } ?? []
            result.append(
                StoredEpisode(
                    id: s.int64(0) ?? 0, feedID: s.int64(1) ?? 0, identity: s.string(2) ?? "", guid: s.string(3),
                    title: s.string(4), link: s.string(5), published: s.date(6), duration: s.double(7),
                    description: s.string(8), enclosure: enclosure, enclosures: enclosures,
                    firstSeen: s.date(13) ?? Date(timeIntervalSince1970: 0), announced: s.bool(14) ?? false))
        }
        return result
    }

    private func requireChange(_ changed: Int, _ id: Int64) throws {
        if changed == 0 { throw StoreError.noSuchFeed(String(id)) }
    }
}
