import Foundation
import PodcastFeeds
import PodcastStore

/// What a user asks of a running queue (the web API directly; the command line through the
/// store and a SIGHUP, `reloadSettings()`): download one episode (queued again when it failed,
/// was cancelled or deleted), a feed's back catalogue, cancel one, delete a downloaded file.
/// Everything queued waits for a slot like any download (`maxConcurrent`, `maxPerHost`, the
/// shared rate).
///
/// Threading: loop thread only, as the queue.
extension DownloadQueue {
    /// What `download(episodeID:)` did.
    public enum Queued: String, Sendable, Equatable {
        /// Newly named and queued.
        case queued
        /// Failed, cancelled or deleted before: queued again.
        case requeued
        /// Already waiting or in flight: left as it is.
        case alreadyQueued = "already_queued"
        /// Already downloaded: nothing to do.
        case alreadyDone = "already_done"
    }

    /// Why a control action could not be done.
    public enum ControlError: Error, Equatable, CustomStringConvertible {
        /// No such episode in the store.
        case noSuchEpisode(Int64)
        /// The episode has no http(s) enclosure to download.
        case nothingToDownload(Int64)
        /// No download of that episode in a state the action applies to.
        case notApplicable(String)

        /// The message for the user.
        public var description: String {
            switch self {
            case .noSuchEpisode(let id): return "no such episode: \(id)"
            case .nothingToDownload(let id): return "episode \(id) has no http(s) enclosure to download"
            case .notApplicable(let message): return message
            }
        }
    }

    /// Whether episode `id`'s download is in flight (admitted to a slot; its first progress
    /// may not have come yet).
    public func isActive(episodeID id: Int64) -> Bool { active[id] != nil }

    /// Downloads episode `id` whatever its feed's settings: a new row named by the current
    /// template, or a failed, cancelled or deleted one queued again (`DownloadLedger.requeue`).
    /// Throws `ControlError` or `StoreError`.
    @discardableResult
    public func download(episodeID id: Int64) throws -> Queued {
        if let record = try ledger.record(episodeID: id) {
            switch record.state {
            case .pending, .downloading: return .alreadyQueued
            case .done: return .alreadyDone
            case .failed, .deleted:
                guard try ledger.requeue(episodeID: id, now: now()) else { return .alreadyQueued }
                retryTimers.removeValue(forKey: id)?.cancel()
                model.clearFailure(id: id)
                if running, let fresh = try ledger.record(episodeID: id) {
                    enqueueReady(fresh)
                    admit()
                }
                return .requeued
            }
        }
        guard let (episode, podcastTitle) = try ledger.episodeToDownload(id: id) else {
            throw ControlError.noSuchEpisode(id)
        }
        guard let enclosure = episode.enclosure, case .http = FetchTarget(enclosure.url) else {
            throw ControlError.nothingToDownload(id)
        }
        let fields = DownloadNaming.Fields(
            podcast: podcastTitle, title: episode.title, guid: episode.guid, episodeID: id,
            date: episode.published ?? episode.firstSeen, url: enclosure.url, mimeType: enclosure.mimeType)
        guard let record = try queueNamed(fields, feedID: episode.feedID, length: enclosure.length) else {
            return .alreadyQueued
        }
        if running {
            enqueueReady(record)
            admit()
        }
        return .queued
    }

    /// Queues every episode of feed `feedID` never queued (`DownloadLedger.backCatalogue`),
    /// newest first; returns how many. Throws `StoreError`.
    @discardableResult
    public func downloadBackCatalogue(feedID: Int64) throws -> Int {
        var count = 0
        for id in try ledger.backCatalogue(feedID: feedID) where (try? download(episodeID: id)) == .queued {
            count += 1
        }
        return count
    }

    /// Cancels episode `id`'s download if it waits or is in flight: the transfer stops (its
    /// `.part` is kept for a later `download`), the store records it failed with
    /// `DownloadLedger.cancelledMessage` and no further attempt. Throws `ControlError` when it
    /// is not waiting or running, or `StoreError`.
    public func cancel(episodeID id: Int64) throws {
        guard try ledger.cancel(episodeID: id) else {
            throw ControlError.notApplicable("episode \(id) has no download waiting or in progress")
        }
        stopInMemory(id, cancelled: true)
        if !isBusy { onIdle?() }
    }

    /// Deletes episode `id`'s downloaded file (only if it is still the file the store wrote, as
    /// retention checks) off the loop, then records the download `deleted`: the episode stays
    /// known and is not downloaded again unless asked. `completion` gets `nil`, or why the
    /// file was kept. Throws `ControlError` when the episode has no completed download.
    public func deleteFile(episodeID id: Int64, completion: @escaping (String?) -> Void) throws {
        guard let record = try ledger.record(episodeID: id), record.state == .done else {
            throw ControlError.notApplicable("episode \(id) has no downloaded file")
        }
        retentionsInFlight += 1
        DownloadRetention.delete([record], deliver: deliver) { [weak self] results in
            guard let self else { return }
            self.retentionsInFlight -= 1
            var kept: String?
            if case .kept(let reason)? = results.first?.1 { kept = reason }
            if kept == nil { try? self.ledger.markDeleted(episodeID: id) }
            completion(kept)
            if !self.isBusy { self.onIdle?() }
        }
    }

    /// Deletes `record`'s file now if it is still the file the store wrote (see
    /// `deleteFile(episodeID:completion:)`; the command line's `delete-download`, which has no
    /// loop). `nil` when it is gone (deleted, or already missing), else why it was kept. Blocks
    /// on the file system.
    public static func deleteDownloadedFile(_ record: DownloadRecord) -> String? {
        if case .kept(let reason) = DownloadRetention.deleteOne(record) { return reason }
        return nil
    }

    /// Brings the queue in line with the store after the command line changed it (SIGHUP):
    /// takes the download requests (`download --episode`, `--all`), starts pending rows it does
    /// not hold, and stops transfers the store no longer says are running (cancelled).
    func followStore() {
        guard running else { return }
        takeRequests()
        guard let unfinished = try? ledger.unfinished() else { return }
        for record in unfinished {
            let id = record.episodeID
            switch record.state {
            case .pending:
                if active[id] == nil && waitingRecords[id] == nil {
                    retryTimers.removeValue(forKey: id)?.cancel()
                    model.clearFailure(id: id)
                    enqueueReady(record)
                }
            case .failed where record.error == DownloadLedger.cancelledMessage:
                if active[id] != nil || waitingRecords[id] != nil { stopInMemory(id, cancelled: true) }
            default:
                break
            }
        }
        admit()
    }

    // Queues the episodes the command line asked for, and forgets each request.
    func takeRequests() {
        guard let ids = try? ledger.requests() else { return }
        for id in ids {
            do {
                try download(episodeID: id)
            } catch {
                onWarning?("cannot download episode \(id) as asked: \(error)")
            }
            try? ledger.clearRequest(episodeID: id)
        }
    }

    // Drops episode `id` from the transfers, the waiting line and the retry timers.
    private func stopInMemory(_ id: Int64, cancelled: Bool) {
        retryTimers.removeValue(forKey: id)?.cancel()
        if waitingRecords.removeValue(forKey: id) != nil { waiting.removeAll { $0 == id } }
        if let entry = active.removeValue(forKey: id) {
            progressCallbacks += entry.download.callbackCount
            entry.download.stop(.keep) { [ledger] bytes in try? ledger.noteBytes(episodeID: id, bytes: bytes) }
            let left = hostCounts[entry.host, default: 1] - 1
            hostCounts[entry.host] = left > 0 ? left : nil
            model.remove(id: id)
        }
        if cancelled { model.clearFailure(id: id) }
        admit()
    }
}
