import Foundation

/// What the user asks of downloads (the `download`, `cancel-download` and `delete-download`
/// commands, and the web API): queue again, cancel, and the requests only a daemon can start.
///
/// Threading: the store's. Every method throws `StoreError`.
extension DownloadLedger {
    /// The message a cancelled download keeps as its error.
    public static let cancelledMessage = "cancelled"

    /// Queues episode `id`'s download again when it failed (given up or waiting for its retry),
    /// was cancelled, or its file was deleted: state `pending`, no attempts, no error, queued
    /// at `now`. A failed one keeps its `.part` bytes and validators (the next attempt
    /// resumes); a deleted one starts from zero. `false` when its state is none of these (or it
    /// has no row).
    @discardableResult
    public func requeue(episodeID id: Int64, now: Date) throws -> Bool {
        try database.run(
            """
            UPDATE downloads SET state = 'pending', attempts = 0, error = NULL, next_retry = NULL, queued = ?2,
                bytes = CASE state WHEN 'deleted' THEN 0 ELSE bytes END,
                etag = CASE state WHEN 'deleted' THEN NULL ELSE etag END,
                last_modified = CASE state WHEN 'deleted' THEN NULL ELSE last_modified END,
                finished = CASE state WHEN 'deleted' THEN NULL ELSE finished END
            WHERE episode_id = ?1 AND state IN ('failed', 'deleted')
            """, .integer(id), .date(now)) > 0
    }

    /// Every failed download (given up or waiting for its retry), oldest queued first: what
    /// `download --failed` queues again.
    public func failed() throws -> [DownloadRecord] {
        try unfinished().filter { $0.state == .failed }
    }

    /// Cancels episode `id`'s download when it is pending or in flight: state `failed` with
    /// error `cancelledMessage` and no next attempt (its `.part` is kept: `download --episode`
    /// resumes it). `false` when it is in no such state.
    @discardableResult
    public func cancel(episodeID id: Int64) throws -> Bool {
        try database.run(
            """
            UPDATE downloads SET state = 'failed', error = ?2, next_retry = NULL
            WHERE episode_id = ?1 AND state IN ('pending', 'downloading')
            """, .integer(id), .text(DownloadLedger.cancelledMessage)) > 0
    }

    /// Records that the user asked for episode `id` to be downloaded (it has no download row
    /// yet): a running daemon names and queues it at its next SIGHUP, or the next `run` at its
    /// start. Idempotent.
    public func request(episodeID id: Int64, at date: Date) throws {
        try database.run(
            "INSERT OR IGNORE INTO download_requests (episode_id, requested) VALUES (?1, ?2)", .integer(id),
            .date(date))
    }

    /// The episodes asked for (`request`), oldest request first.
    public func requests() throws -> [Int64] {
        let statement = try database.prepare("SELECT episode_id FROM download_requests ORDER BY requested, episode_id")
        var ids: [Int64] = []
        while try statement.step() { if let id = statement.int64(0) { ids.append(id) } }
        return ids
    }

    /// Forgets the request for episode `id` (it was queued, or cannot be).
    public func clearRequest(episodeID id: Int64) throws {
        try database.run("DELETE FROM download_requests WHERE episode_id = ?1", .integer(id))
    }

    /// Feed `feedID`'s episodes with an http(s) enclosure and no download row (never queued:
    /// older than the first-sync limit, or from before downloads were on), newest first.
    public func backCatalogue(feedID: Int64) throws -> [Int64] {
        let statement = try database.prepare(
            """
            SELECT e.id FROM episodes e
            WHERE e.feed_id = ?1 AND (e.enclosure_url LIKE 'http://%' OR e.enclosure_url LIKE 'https://%')
                AND NOT EXISTS (SELECT 1 FROM downloads d WHERE d.episode_id = e.id)
            ORDER BY e.published DESC NULLS LAST, e.first_seen DESC, e.id DESC
            """, .integer(feedID))
        var ids: [Int64] = []
        while try statement.step() { if let id = statement.int64(0) { ids.append(id) } }
        return ids
    }

    /// Episode `id` as stored and its podcast's title, for naming a download the user asked
    /// for; `nil` when there is no such episode.
    public func episodeToDownload(id: Int64) throws -> (episode: StoredEpisode, podcastTitle: String?)? {
        let columns = FeedStore.episodeColumns.split(separator: ",").map {
            "e." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }.joined(separator: ", ")
        let statement = try database.prepare(
            "SELECT \(columns), coalesce(f.title, f.feed_title) FROM episodes e JOIN feeds f ON f.id = e.feed_id "
                + "WHERE e.id = ?1", .integer(id))
        guard try statement.step() else { return nil }
        return (FeedStore.readEpisode(statement), statement.string(16))
    }
}
