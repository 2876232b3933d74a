import Foundation

/// The `downloads` table and the per-feed download settings, on a `FeedStore`'s connection.
///
/// Threading: the store's (the loop thread in `run`). Every method throws `StoreError`.
public struct DownloadLedger: DownloadStoring {
    /// The store whose database holds the ledger.
    public let store: FeedStore
    var database: Database { store.database }

    /// A ledger on `store`.
    public init(store: FeedStore) {
        self.store = store
    }

    private static let columns = """
        d.episode_id, d.feed_id, d.url, d.path, d.state, d.bytes, d.total, d.etag, d.last_modified, d.attempts,
        d.error, d.next_retry, d.queued, d.finished, d.seconds, coalesce(f.title, f.feed_title), e.title, f.url
        """
    private static let from = "downloads d JOIN feeds f ON f.id = d.feed_id JOIN episodes e ON e.id = d.episode_id"

    private static func read(_ s: Statement) -> DownloadRecord {
        DownloadRecord(
            episodeID: s.int64(0) ?? 0, feedID: s.int64(1) ?? 0, url: s.string(2) ?? "", path: s.string(3) ?? "",
            state: DownloadRecord.State(rawValue: s.string(4) ?? "") ?? .failed, bytes: s.int64(5) ?? 0,
            total: s.int64(6), etag: s.string(7), lastModified: s.string(8), attempts: s.int(9) ?? 0,
            error: s.string(10), nextRetry: s.date(11), queued: s.date(12) ?? Date(timeIntervalSince1970: 0),
            finished: s.date(13), seconds: s.double(14), podcastTitle: s.string(15), episodeTitle: s.string(16),
            feedURL: s.string(17))
    }

    private func records(_ whereClause: String, _ bindings: [SQLValue]) throws -> [DownloadRecord] {
        let statement = try database.prepare(
            "SELECT \(DownloadLedger.columns) FROM \(DownloadLedger.from) \(whereClause)")
        try statement.bind(bindings)
        var out: [DownloadRecord] = []
        while try statement.step() { out.append(DownloadLedger.read(statement)) }
        return out
    }

    /// The download of episode `id`, if queued.
    public func record(episodeID id: Int64) throws -> DownloadRecord? {
        try records("WHERE d.episode_id = ?1", [.integer(id)]).first
    }

    /// Every download, newest queued first; `feedID` limits it to one feed.
    public func all(feedID: Int64? = nil) throws -> [DownloadRecord] {
        if let feedID {
            return try records("WHERE d.feed_id = ?1 ORDER BY d.queued DESC, d.episode_id DESC", [.integer(feedID)])
        }
        return try records("ORDER BY d.queued DESC, d.episode_id DESC", [])
    }

    /// Stores `bytesOnDisk` for every unfinished download whose stored count ran ahead of its
    /// `.part` file (a killed run), so every view of the store (`downloads`, the live table,
    /// the JSON lines) shows where the resume will start. Returns the downloads corrected, by
    /// episode id. `DownloadQueue.start()` runs it before it resumes anything.
    @discardableResult
    public func reconcileWithPartFiles() throws -> [Int64] {
        var corrected: [Int64] = []
        for record in try unfinished() where record.bytes > 0 {
            let onDisk = record.bytesOnDisk
            guard onDisk < record.bytes else { continue }
            try noteBytes(episodeID: record.episodeID, bytes: onDisk)
            corrected.append(record.episodeID)
        }
        return corrected
    }

    /// Downloads not done: pending, downloading (a run that died) and failed, oldest first.
    public func unfinished() throws -> [DownloadRecord] {
        try records(
            "WHERE d.state IN ('pending', 'downloading', 'failed') ORDER BY d.queued, d.episode_id", [])
    }

    /// Queues episode `episodeID` of feed `feedID` from `url` into the first free name of
    /// `candidate(1)`, `candidate(2)`, ... (free: no other download has it; the caller checks the
    /// disk when it opens the file). Returns the new record, or `nil` when the episode was
    /// already queued (idempotent: a re-delivered announcement queues nothing twice).
    @discardableResult
    public func enqueue(
        episodeID: Int64, feedID: Int64, url: String, total: Int64?, queued: Date, candidate: (Int) -> String
    ) throws -> DownloadRecord? {
        try database.transaction {
            if try database.scalarInt("SELECT 1 FROM downloads WHERE episode_id = ?1", .integer(episodeID)) != nil {
                return nil
            }
            var n = 1
            var path = candidate(n)
            while try database.scalarInt(
                "SELECT 1 FROM downloads WHERE \(DownloadLedger.clashes)", .text(path)) != nil
            {
                n += 1
                path = candidate(n)
            }
            try database.run(
                "INSERT INTO downloads (episode_id, feed_id, url, path, total, queued) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                .integer(episodeID), .integer(feedID), .text(url), .text(path),
                SQLValue(total.flatMap { $0 > 0 ? $0 : nil }),
                .date(queued))
            return try record(episodeID: episodeID)
        }
    }

    /// `record` pointed at its episode's current enclosure URL when the feed changed it (to
    /// another http(s) URL): the store forgets the bytes and validators (another resource's:
    /// RFC 9110 compares entity tags only between representations of one resource, so no
    /// `If-Range` can vouch for the old `.part` against the new URL) and takes the new
    /// enclosure's `length` as the expected size until the server sends one; the returned record
    /// has `fromZero` set, so the part is emptied. Unchanged: `record`.
    public func followEnclosure(_ record: DownloadRecord) throws -> DownloadRecord {
        let current = try database.prepare("SELECT enclosure_url, enclosure_length FROM episodes WHERE id = ?1")
        try current.bind([.integer(record.episodeID)])
        guard try current.step(), let url = current.string(0), url != record.url, case .http = FetchTarget(url)
        else { return record }
        let length = current.int64(1).flatMap { $0 > 0 ? $0 : nil }
        try database.run(
            "UPDATE downloads SET url = ?2, bytes = 0, total = ?3, etag = NULL, last_modified = NULL "
                + "WHERE episode_id = ?1", .integer(record.episodeID), .text(url), SQLValue(length))
        var moved = record
        moved.url = url
        moved.bytes = 0
        moved.total = length
        moved.etag = nil
        moved.lastModified = nil
        moved.fromZero = true
        return moved
    }

    /// Whether `path` is another download's: its final name or its `.part`, or `path` is the
    /// other's `.part` (each download reserves both names).
    public func isTaken(_ path: String, except episodeID: Int64) throws -> Bool {
        try database.scalarInt(
            "SELECT 1 FROM downloads WHERE (\(DownloadLedger.clashes)) AND episode_id <> ?2", .text(path),
            .integer(episodeID)) != nil
    }

    // A row whose `NAME` or `NAME.part` is the name ?1 or its `.part`.
    private static let clashes = "path = ?1 OR path = ?1 || '.part' OR path || '.part' = ?1"

    /// Moves an unfinished download to another file name (its name was taken on disk).
    public func rename(episodeID: Int64, to path: String) throws {
        try database.run("UPDATE downloads SET path = ?2 WHERE episode_id = ?1", .integer(episodeID), .text(path))
    }

    /// An attempt started from `bytes` (the part file's size).
    public func markDownloading(episodeID: Int64, bytes: Int64) throws {
        try database.run(
            "UPDATE downloads SET state = 'downloading', bytes = ?2, next_retry = NULL WHERE episode_id = ?1",
            .integer(episodeID), .integer(bytes))
    }

    /// The response's validators and size: what a resume must match.
    public func noteResponse(episodeID: Int64, etag: String?, lastModified: String?, total: Int64?) throws {
        try database.run(
            "UPDATE downloads SET etag = ?2, last_modified = ?3, total = coalesce(?4, total) WHERE episode_id = ?1",
            .integer(episodeID), SQLValue(etag), SQLValue(lastModified), SQLValue(total))
    }

    /// The length the feed declares for episode `episodeID`'s enclosure (bytes), if any.
    public func declaredLength(episodeID: Int64) throws -> Int64? {
        let statement = try database.prepare(
            "SELECT enclosure_length FROM episodes WHERE id = ?1", .integer(episodeID))
        guard try statement.step() else { return nil }
        return statement.int64(0).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Bytes on disk so far (recorded now and then, and when an attempt ends).
    public func noteBytes(episodeID: Int64, bytes: Int64) throws {
        try database.run("UPDATE downloads SET bytes = ?2 WHERE episode_id = ?1", .integer(episodeID), .integer(bytes))
    }

    /// The download completed: `bytes` at its path.
    public func markDone(episodeID: Int64, bytes: Int64, finished: Date, seconds: Double) throws {
        try database.run(
            """
            UPDATE downloads SET state = 'done', bytes = ?2, total = ?2, finished = ?3, seconds = ?4, error = NULL,
                next_retry = NULL WHERE episode_id = ?1
            """, .integer(episodeID), .integer(bytes), .date(finished), .real(seconds))
    }

    /// The attempt failed with `error`; `nextRetry` nil means no more attempts.
    public func markFailed(episodeID: Int64, error: String, bytes: Int64, nextRetry: Date?) throws {
        try database.run(
            """
            UPDATE downloads SET state = 'failed', error = ?2, bytes = ?3, next_retry = ?4, attempts = attempts + 1
            WHERE episode_id = ?1
            """, .integer(episodeID), .text(error), .integer(bytes), .date(nextRetry))
    }

    /// A run stopped with this download in flight: back to pending, with the bytes on disk.
    public func markInterrupted(episodeID: Int64, bytes: Int64) throws {
        try database.run(
            "UPDATE downloads SET state = 'pending', bytes = ?2 WHERE episode_id = ?1 AND state = 'downloading'",
            .integer(episodeID), .integer(bytes))
    }

    /// Retention removed the file.
    public func markDeleted(episodeID: Int64) throws {
        try database.run("UPDATE downloads SET state = 'deleted' WHERE episode_id = ?1", .integer(episodeID))
    }

    /// Completed downloads of feed `feedID` beyond the newest `keep` (by completion time), oldest
    /// first: what retention deletes.
    public func doneBeyond(feedID: Int64, keep: Int) throws -> [DownloadRecord] {
        let done = try records(
            "WHERE d.feed_id = ?1 AND d.state = 'done' ORDER BY d.finished DESC, d.episode_id DESC",
            [.integer(feedID)])
        return Array(done.dropFirst(max(0, keep)).reversed())
    }

    /// The stored fields of episode `episodeID` a `downloaded` hook reports; `nil` when the
    /// episode is gone or cannot be read.
    public func episodeDetails(episodeID: Int64) -> DownloadedEpisodeDetails? {
        guard
            let statement = try? database.prepare(
                "SELECT guid, link, published, duration, enclosure_type, enclosure_length FROM episodes WHERE id = ?1",
                .integer(episodeID)), (try? statement.step()) == true
        else { return nil }
        return DownloadedEpisodeDetails(
            guid: statement.string(0), link: statement.string(1), published: statement.date(2),
            duration: statement.double(3), mimeType: statement.string(4), length: statement.int64(5))
    }

    // MARK: Per-feed settings

    /// A feed's own download settings (`FeedDownloadSettings`).
    public typealias FeedSettings = FeedDownloadSettings

    /// Feed `id`'s settings (both `nil` for a feed that has none, or does not exist).
    public func settings(feedID id: Int64) throws -> FeedSettings {
        let statement = try database.prepare("SELECT download, keep FROM feeds WHERE id = ?1", .integer(id))
        guard try statement.step() else { return FeedSettings() }
        return FeedSettings(download: statement.bool(0), keep: statement.int(1))
    }

    /// Sets feed `id`'s settings (`nil` fields: follow `run`).
    public func setSettings(_ settings: FeedSettings, feedID id: Int64) throws {
        try database.run(
            "UPDATE feeds SET download = ?2, keep = ?3 WHERE id = ?1", .integer(id), SQLValue(settings.download),
            SQLValue(settings.keep.map { Int64(max(0, $0)) }))
    }
}
