import Foundation
import ViewModelKit

/// One download in flight, as the views show it.
public struct DownloadProgress: Sendable, Equatable, Identifiable {
    /// The store's episode id.
    public var id: Int64
    /// The podcast's title.
    public var podcastTitle: String?
    /// The episode's title.
    public var episodeTitle: String?
    /// The final file's path.
    public var path: String
    /// Bytes on disk so far (resumed bytes included).
    public var bytes: Int64
    /// The full size, when known.
    public var total: Int64?
    /// Average rate of this attempt, bytes per second (0 until measurable).
    public var bytesPerSecond: Double

    /// Seconds left at the current rate; `nil` without a total or a rate.
    public var etaSeconds: Double? {
        guard let total, bytesPerSecond > 0, total >= bytes else { return nil }
        return Double(total - bytes) / bytesPerSecond
    }

    /// A progress row.
    public init(
        id: Int64, podcastTitle: String?, episodeTitle: String?, path: String, bytes: Int64, total: Int64?,
        bytesPerSecond: Double = 0
    ) {
        self.id = id
        self.podcastTitle = podcastTitle
        self.episodeTitle = episodeTitle
        self.path = path
        self.bytes = bytes
        self.total = total
        self.bytesPerSecond = bytesPerSecond
    }
}

/// The download queue as the views see it: the transfers in flight (in start order) and the
/// counts. An `ObservableObject` like `LibraryViewModel`: every libcurl progress callback may
/// change it, and each observer still redraws once per loop iteration (`observe(on:)`).
///
/// Threading: change it on the loop thread (`DownloadQueue` does); read it there.
public final class DownloadsViewModel: ObservableObject {
    /// Downloads in flight, oldest start first.
    @Published public private(set) var active: [DownloadProgress] = []
    /// Downloads waiting for a slot or a retry.
    @Published public private(set) var waitingCount = 0
    /// Downloads completed since start.
    @Published public private(set) var finishedCount = 0
    /// Downloads whose last attempt failed (each counted once however many attempts it took;
    /// one that later completes, is queued again or cancelled no longer counts).
    @Published public private(set) var failedCount = 0
    /// Bytes received by the transfers since start (resumed bytes not counted again).
    public private(set) var bytesReceived: Int64 = 0

    private var failedIDs: Set<Int64> = []

    /// An empty model.
    public init() {}

    /// The sum of the active downloads' rates, bytes per second.
    public var totalBytesPerSecond: Double { active.reduce(0) { $0 + $1.bytesPerSecond } }

    /// Adds or replaces the row of `progress.id`.
    public func upsert(_ progress: DownloadProgress) {
        if let index = active.firstIndex(where: { $0.id == progress.id }) {
            active[index] = progress
        } else {
            active.append(progress)
        }
    }

    /// Updates the bytes and rate of row `id` (a progress callback); nothing if it has none or
    /// nothing differs.
    public func update(id: Int64, bytes: Int64, total: Int64?, bytesPerSecond: Double) {
        guard let index = active.firstIndex(where: { $0.id == id }) else { return }
        var row = active[index]
        guard row.bytes != bytes || row.total != total || row.bytesPerSecond != bytesPerSecond else { return }
        if bytes > row.bytes { bytesReceived += bytes - row.bytes }
        row.bytes = bytes
        row.total = total
        row.bytesPerSecond = bytesPerSecond
        active[index] = row  // one change notification, not three
    }

    /// Removes row `id`; `finished` / `failed` count it.
    public func end(id: Int64, finished: Bool) {
        active.removeAll { $0.id == id }
        if finished {
            finishedCount += 1
            failedIDs.remove(id)
        } else {
            failedIDs.insert(id)
        }
        if failedCount != failedIDs.count { failedCount = failedIDs.count }
    }

    /// Download `id` no longer counts as failed (queued again, or cancelled by the user).
    public func clearFailure(id: Int64) {
        guard failedIDs.remove(id) != nil else { return }
        failedCount = failedIDs.count
    }

    /// Removes row `id` without counting it (the run stopped).
    public func remove(id: Int64) {
        active.removeAll { $0.id == id }
    }

    /// Sets the number waiting.
    public func setWaiting(_ count: Int) {
        if waitingCount != count { waitingCount = count }
    }
}
