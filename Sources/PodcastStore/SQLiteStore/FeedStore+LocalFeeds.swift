import Foundation

/// The local podcast feeds' secrets and the completed downloads they list.
///
/// A secret is 32 random bytes from `getrandom(2)` (`SystemRandomNumberGenerator`) as 64 hex
/// digits, made the first time it is asked for and kept until rotated. Scope `0` is the whole
/// library, any other scope a feed id (its secret goes with the feed).
///
/// Threading: the store's.
extension FeedStore {
    /// The scope of the library's own feed.
    public static let libraryScope: Int64 = 0

    /// The secret of scope `scope` (a feed id, or `libraryScope`), made and stored if it has
    /// none yet. Throws `StoreError`.
    public func localFeedSecret(scope: Int64) throws -> String {
        if let secret = try database.scalarString(
            "SELECT secret FROM local_feed_secrets WHERE feed_id = ?1", .integer(scope))
        {
            return secret
        }
        return try rotateLocalFeedSecret(scope: scope)
    }

    /// Replaces scope `scope`'s secret with a new one (the old one stops working at once: every
    /// request looks the secret up) and returns it. Throws `StoreError`.
    @discardableResult
    public func rotateLocalFeedSecret(scope: Int64) throws -> String {
        let secret = FeedStore.randomSecret()
        try database.run(
            "INSERT INTO local_feed_secrets (feed_id, secret) VALUES (?1, ?2) "
                + "ON CONFLICT (feed_id) DO UPDATE SET secret = excluded.secret", .integer(scope), .text(secret))
        return secret
    }

    /// The scope whose secret is `secret`, `nil` when none is (a rotated or made-up secret).
    /// Indexed lookup (the column is unique). Throws `StoreError`.
    public func localFeedScope(secret: String) throws -> Int64? {
        guard secret.utf8.count == 64 else { return nil }
        return try database.scalarInt("SELECT feed_id FROM local_feed_secrets WHERE secret = ?1", .text(secret))
    }

    /// Completed downloads (state `done`) of feed `feedID` (every feed when `nil`), newest
    /// first: by publication date (unknown dates last), then first seen. Throws `StoreError`.
    public func localFeedEntries(feedID: Int64?) throws -> [LocalFeedEntry] {
        try localFeedEntries(
            "WHERE d.state = 'done' AND (?1 IS NULL OR d.feed_id = ?1) "
                + "ORDER BY e.published DESC NULLS LAST, e.first_seen DESC, e.id DESC", SQLValue(feedID))
    }

    /// Episode `id`'s completed download, `nil` when it has none (not downloaded, deleted,
    /// unfinished). Throws `StoreError`.
    public func localFeedEntry(episodeID id: Int64) throws -> LocalFeedEntry? {
        try localFeedEntries("WHERE d.state = 'done' AND d.episode_id = ?1", .integer(id)).first
    }

    /// How many completed downloads each feed has (feeds with none are absent). Throws
    /// `StoreError`.
    public func completedDownloadCounts() throws -> [Int64: Int] {
        let statement = try database.prepare(
            "SELECT feed_id, count(*) FROM downloads WHERE state = 'done' GROUP BY feed_id")
        var counts: [Int64: Int] = [:]
        while try statement.step() {
            if let id = statement.int64(0) { counts[id] = statement.int(1) ?? 0 }
        }
        return counts
    }

    /// The paths of the completed downloads among `ids` (episodes without one are absent).
    /// Throws `StoreError`.
    public func completedDownloadPaths(episodeIDs ids: [Int64]) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        let list = ids.map(String.init).joined(separator: ",")
        let statement = try database.prepare(
            "SELECT episode_id, path FROM downloads WHERE state = 'done' AND episode_id IN (\(list))")
        var paths: [Int64: String] = [:]
        while try statement.step() {
            if let id = statement.int64(0), let path = statement.string(1) { paths[id] = path }
        }
        return paths
    }

    private func localFeedEntries(_ clause: String, _ binding: SQLValue) throws -> [LocalFeedEntry] {
        let columns = FeedStore.episodeColumns.split(separator: ",").map {
            "e." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }.joined(separator: ", ")
        let statement = try database.prepare(
            """
            SELECT \(columns), coalesce(f.title, f.feed_title), d.path, d.bytes, d.finished, e.show_notes_html
            FROM downloads d JOIN episodes e ON e.id = d.episode_id JOIN feeds f ON f.id = d.feed_id \(clause)
            """, binding)
        var entries: [LocalFeedEntry] = []
        while try statement.step() {
            let episode = FeedStore.readEpisode(statement)
            entries.append(
                LocalFeedEntry(
                    episode: episode, podcastTitle: statement.string(16), path: statement.string(17) ?? "",
                    bytes: statement.int64(18) ?? 0, finished: statement.date(19),
                    showNotesHTML: statement.string(20)))
        }
        return entries
    }

    static func randomSecret() -> String {
        var rng = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        var out = ""
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &rng)
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return out
    }
}
