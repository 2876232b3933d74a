import Foundation

extension FeedStore {
    /// Records (or replaces) the hook attempt owed to episode `retry.episodeID`. An episode
    /// removed meanwhile (its feed was removed) is ignored. Throws `StoreError`.
    public func saveHookRetry(_ retry: PendingHookRetry) throws {
        _ = try database.run(
            """
            INSERT INTO hook_retries (episode_id, attempt, due, last_error, attempts)
            SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM episodes WHERE id = ?1)
            ON CONFLICT (episode_id) DO UPDATE SET attempt = excluded.attempt, due = excluded.due,
                last_error = excluded.last_error, attempts = excluded.attempts
            """,
            .integer(retry.episodeID), .integer(Int64(retry.attempt)), .real(retry.due.timeIntervalSince1970),
            SQLValue(retry.lastError), SQLValue(retry.attempts.map { Int64(max(1, $0)) }))
    }

    /// Sets the attempt limit every owed attempt is shown with (`list`'s "retry 2/4") to
    /// `attempts`, after a reload changed `hook-retries`. Throws `StoreError`.
    public func setHookRetryLimit(_ attempts: Int) throws {
        _ = try database.run("UPDATE hook_retries SET attempts = ?1", .integer(Int64(max(1, attempts))))
    }

    /// Forgets the hook attempt owed to episode `episodeID` (it succeeded, or gave up).
    public func clearHookRetry(episodeID: Int64) throws {
        _ = try database.run("DELETE FROM hook_retries WHERE episode_id = ?1", .integer(episodeID))
    }

    /// Every owed hook attempt with its episode, soonest due first (then by episode id).
    public func pendingHookRetries() throws -> [(retry: PendingHookRetry, episode: StoredEpisode)] {
        let statement = try database.prepare(
            "SELECT \(FeedStore.retryColumns) FROM hook_retries ORDER BY due, episode_id")
        let retries = try FeedStore.readRetries(statement)
        return try retries.compactMap { retry in
            let rows = try database.prepare(
                "SELECT \(FeedStore.episodeColumns) FROM episodes WHERE id = ?1", .integer(retry.episodeID))
            return try FeedStore.readEpisodes(rows).first.map { (retry, $0) }
        }
    }

    /// Feed `id`'s owed hook attempts (its episodes'), soonest due first: what `list` shows
    /// while a hook is failing but not given up yet.
    public func pendingHookRetries(feedID id: Int64) throws -> [PendingHookRetry] {
        let statement = try database.prepare(
            """
            SELECT \(FeedStore.retryColumns) FROM hook_retries
            WHERE episode_id IN (SELECT id FROM episodes WHERE feed_id = ?1) ORDER BY due, episode_id
            """, .integer(id))
        return try FeedStore.readRetries(statement)
    }

    private static let retryColumns = "episode_id, attempt, due, last_error, attempts"

    private static func readRetries(_ statement: Statement) throws -> [PendingHookRetry] {
        var retries: [PendingHookRetry] = []
        while try statement.step() {
            retries.append(
                PendingHookRetry(
                    episodeID: statement.int64(0) ?? 0, attempt: statement.int(1) ?? 1,
                    due: statement.date(2) ?? Date(timeIntervalSince1970: 0), lastError: statement.string(3),
                    attempts: statement.int(4)))
        }
        return retries
    }
}
