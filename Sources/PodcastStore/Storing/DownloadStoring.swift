import Foundation

/// What the engine's download queue needs of a store: one `DownloadRecord` per episode queued,
/// its progress and outcome, and the per-feed download settings. `DownloadLedger` (SQLite) is the
/// implementation today.
///
/// Threading: the store's (one thread at a time). Every method that throws throws `StoreError`.
public protocol DownloadStoring {
    /// Episode `id`'s download, or `nil` when none was queued.
    func record(episodeID id: Int64) throws -> DownloadRecord?
    /// Lowers the stored byte count of every unfinished download that ran ahead of its `.part`
    /// file (a killed run) to what the file backs; returns the episodes corrected.
    @discardableResult
    func reconcileWithPartFiles() throws -> [Int64]
    /// Downloads not done yet (pending, downloading, failed), oldest queued first.
    func unfinished() throws -> [DownloadRecord]
    /// Queues episode `episodeID` of feed `feedID` from `url` into the first name of
    /// `candidate(1)`, `candidate(2)`, ... no other download has; `total` is the enclosure's
    /// declared length. `nil` when the episode was already queued (so queueing is idempotent).
    @discardableResult
    func enqueue(
        episodeID: Int64, feedID: Int64, url: String, total: Int64?, queued: Date, candidate: (Int) -> String
    ) throws -> DownloadRecord?
    /// `record` pointed at its episode's current enclosure URL when the feed moved it to another
    /// http(s) URL (bytes and validators of the old one forgotten, `fromZero` set); else `record`.
    func followEnclosure(_ record: DownloadRecord) throws -> DownloadRecord
    /// Whether another download already owns `path`.
    func isTaken(_ path: String, except episodeID: Int64) throws -> Bool
    /// Moves episode `episodeID`'s download to `path`.
    func rename(episodeID: Int64, to path: String) throws
    /// A transfer started with `bytes` already on disk.
    func markDownloading(episodeID: Int64, bytes: Int64) throws
    /// The server's validators and the full size, for a later resume.
    func noteResponse(episodeID: Int64, etag: String?, lastModified: String?, total: Int64?) throws
    /// The length the feed declares for the episode's enclosure (bytes), if any.
    func declaredLength(episodeID: Int64) throws -> Int64?
    /// Progress: `bytes` on disk.
    func noteBytes(episodeID: Int64, bytes: Int64) throws
    /// Complete: `bytes` long, finished at `finished` after `seconds`.
    func markDone(episodeID: Int64, bytes: Int64, finished: Date, seconds: Double) throws
    /// An attempt failed with `error`; the next starts at `nextRetry` (`nil`: never).
    func markFailed(episodeID: Int64, error: String, bytes: Int64, nextRetry: Date?) throws
    /// Stopped by shutdown with `bytes` on disk: resumed at the next start.
    func markInterrupted(episodeID: Int64, bytes: Int64) throws
    /// Removed by retention.
    func markDeleted(episodeID: Int64) throws
    /// Completed downloads of feed `feedID` beyond the newest `keep`, oldest first.
    func doneBeyond(feedID: Int64, keep: Int) throws -> [DownloadRecord]
    /// Feed `id`'s own download settings (both `nil` when it has none).
    func settings(feedID id: Int64) throws -> FeedDownloadSettings
    /// The stored episode fields a `downloaded` hook reports, or `nil`.
    func episodeDetails(episodeID: Int64) -> DownloadedEpisodeDetails?
    /// Queues a failed, cancelled or deleted download again (see `DownloadLedger.requeue`).
    func requeue(episodeID: Int64, now: Date) throws -> Bool
    /// Cancels a pending or running download (see `DownloadLedger.cancel`).
    func cancel(episodeID: Int64) throws -> Bool
    /// Downloads the user asked for that have no row yet, oldest first.
    func requests() throws -> [Int64]
    /// Forgets one such request.
    func clearRequest(episodeID: Int64) throws
    /// A feed's episodes with an http(s) enclosure never queued, newest first.
    func backCatalogue(feedID: Int64) throws -> [Int64]
    /// An episode and its podcast's title, for naming its download.
    func episodeToDownload(id: Int64) throws -> (episode: StoredEpisode, podcastTitle: String?)?
}
