import Foundation
import ViewModelKit

/// The library of subscribed feeds as the views see it: one plain `Podcast` row per feed (in id
/// order), the newest episodes, the totals, and a journal of recent events (for the JSON-lines
/// view).
///
/// It is an `ObservableObject` whose `objectWillChange` fires for every change, a feed's row
/// included, so an observer that declares `@ViewModel var library` is updated once per loop
/// iteration however many feeds changed. A view that follows one feed asks for
/// `observable(id:)`: that `Observable<Podcast>` is made on demand, shared while someone holds
/// it, and forgotten when nobody does. Rows are values, not reactive objects, so a library of
/// 100,000 feeds costs about the rows themselves (an `Observable`, a subject and a relay per
/// feed cost about 1.5 KB each; docs/DESIGN-NOTES.md, "A daemon at 100,000 feeds").
///
/// Threading: mutate and read on the daemon's loop thread only.
public final class LibraryViewModel: ObservableObject {
    /// One entry of the event journal: a sequence number (1, 2, 3...) and the event.
    public struct JournalEntry: Equatable, Sendable {
        /// Increases by one per event, from 1.
        public var sequence: Int
        /// The event.
        public var event: FeedEvent
    }

    /// The subscribed feeds' ids, in display order (ascending). Set, and published, only when a
    /// feed is added or removed, never when a feed's row changes (`objectWillChange` says that).
    @Published public private(set) var feedIDs: [Int64] = []
    /// New episodes announced since start, newest publication date first (unknown dates after
    /// known ones; ties: latest announcement first), at most `newestCapacity`.
    @Published public private(set) var newestEpisodes: [EpisodeAnnouncement] = []
    /// How many episodes were announced since start.
    @Published public private(set) var totalNew: Int = 0
    /// The most recent events, oldest first, at most `journalCapacity`; observers remember the
    /// last `sequence` they handled. A change sends `objectWillChange` (it is not `@Published`:
    /// appending to a published array copied the whole journal for every event). Reading it
    /// copies the entries; `journalEntries(after:)` and `lastSequence` read less.
    public var journal: [JournalEntry] { Array(journalStorage[journalStart...]) }

    /// The `sequence` of the newest journal entry, 0 when the journal is empty.
    public var lastSequence: Int { journalStorage.last?.sequence ?? 0 }

    /// The journal entries with a `sequence` greater than `sequence`, oldest first.
    public func journalEntries(after sequence: Int) -> [JournalEntry] {
        guard let first = journalStorage.last.map({ $0.sequence - (journalStorage.count - journalStart) + 1 }) else {
            return []
        }
        // Sequences are consecutive, so the position follows from the number.
        let offset = max(0, min(sequence - first + 1, journalStorage.count - journalStart))
        return Array(journalStorage[(journalStart + offset)...])
    }

    /// How many announcements `newestEpisodes` keeps.
    public let newestCapacity: Int
    /// How many events `journal` keeps (older ones are dropped).
    public let journalCapacity: Int

    // The rows, parallel to `feedIDs` (same order): plain values, changed in place.
    private var rows: [Podcast] = []
    // The `Observable`s handed out by `observable(id:)`, held weakly: an entry whose observable
    // is gone is dropped when its feed changes next, or by `pruneWatchers`.
    private struct Watcher {
        weak var observable: Observable<Podcast>?
        let subject: PassthroughSubject<Podcast, Never>
    }
    private var watchers: [Int64: Watcher] = [:]
    private var watcherPruneThreshold = 64
    private var nextSequence = 1
    // The journal is journalStorage[journalStart...]: dropping the oldest entry moves the start,
    // and the storage is compacted once the dropped prefix reaches the capacity (amortised O(1)
    // per event instead of shifting up to `journalCapacity` entries each time).
    private var journalStorage: [JournalEntry] = []
    private var journalStart = 0
    // The row change log: ids of feeds added, changed or removed, oldest first; entry i has
    // change number `rowChangeBase + i`. Trimmed by half past `rowChangeCapacity` (amortised
    // O(1) per change); a bulk add empties it and moves the base past every earlier cursor.
    private var rowChanges: [Int64] = []
    private var rowChangeBase = 0
    private var rowChangeCapacity: Int { max(4096, rows.count) }
    private var statusCounts: [Podcast.Status: Int] = [:]
    private static let bulkAddLogLimit = 4096

    /// An empty library.
    public init(newestCapacity: Int = 50, journalCapacity: Int = 4096) {
        self.newestCapacity = max(1, newestCapacity)
        self.journalCapacity = max(1, journalCapacity)
    }

    /// The current rows, in display order (by id). O(1): the library's own storage, shared
    /// until the next change (hold it briefly, or that change copies every row).
    public var snapshots: [Podcast] { rows }

    /// How many feeds the library holds.
    public var count: Int { rows.count }

    /// How many feeds have each status (statuses without feeds are absent). Kept as rows change:
    /// O(1) to read.
    public var countsByStatus: [Podcast.Status: Int] { statusCounts }

    /// A position in the row change log, for `changedFeedIDs(since:)`: read it after handling
    /// the changes so far.
    public var rowChangeCursor: Int { rowChangeBase + rowChanges.count }

    /// The ids of the feeds added, changed or removed since `cursor` (a `rowChangeCursor` read
    /// earlier), each once, ascending; a removed one is no longer in the library (`podcast(id:)`
    /// is `nil`). `nil` when the log no longer reaches back to `cursor` (more changes than it
    /// keeps, at least 4,096 or the number of feeds, or more than 4,096 feeds added at once by
    /// `upsert(contentsOf:)`): compare every row then. O(changes log changes).
    public func changedFeedIDs(since cursor: Int) -> [Int64]? {
        guard cursor >= rowChangeBase, cursor <= rowChangeCursor else { return nil }
        let ids = rowChanges[(cursor - rowChangeBase)...]
        guard ids.count > 1 else { return Array(ids) }
        return Array(Set(ids)).sorted()
    }

    /// The snapshot of feed `id`, if subscribed. O(log N).
    public func podcast(id: Int64) -> Podcast? { index(of: id).map { rows[$0] } }

    /// An `Observable` of feed `id`'s row: it starts at the current row and follows every change
    /// to it (one `objectWillChange` each); after the feed is removed it keeps its last value.
    /// Made on demand and shared: asking again while one is held returns the same object; when
    /// nobody holds it the library forgets it. `nil` when the feed is not subscribed.
    public func observable(id: Int64) -> Observable<Podcast>? {
        if let existing = watchers[id]?.observable { return existing }
        guard let index = index(of: id) else { return nil }
        let subject = PassthroughSubject<Podcast, Never>()
        let observable = Observable(initialValue: rows[index], subject)
        if watchers.count >= watcherPruneThreshold { pruneWatchers() }
        watchers[id] = Watcher(observable: observable, subject: subject)
        return observable
    }

    /// Adds feed `podcast.id`, or replaces its snapshot when it is already there (an equal
    /// snapshot changes nothing and notifies nobody).
    public func upsert(_ podcast: Podcast) {
        if let index = index(of: podcast.id) {
            replace(at: index, with: podcast)
            return
        }
        let position = insertionPoint(of: podcast.id)
        var ids = feedIDs
        ids.insert(podcast.id, at: position)
        feedIDs = ids  // will-change, then the list
        rows.insert(podcast, at: position)
        statusCounts[podcast.status, default: 0] += 1
        logRowChange(podcast.id)
    }

    /// Adds or replaces several feeds, as `upsert(_:)` does for each, but changes `feedIDs` at
    /// most once (adding N feeds one by one copies the list N times). O(N + M log M).
    public func upsert(contentsOf snapshots: [Podcast]) {
        // An empty library given rows in strictly increasing id order (the daemon's start) takes
        // the array as it is: the general path below made three copies of it, about 40 MB at
        // 100,000 feeds, at the start's peak.
        if rows.isEmpty, !snapshots.isEmpty, zip(snapshots, snapshots.dropFirst()).allSatisfy({ $0.id < $1.id }) {
            feedIDs = snapshots.map(\.id)  // will-change, then the list
            rows = snapshots
            noteAdded(snapshots)
            return
        }
        var added: [Podcast] = []
        for podcast in snapshots {
            if let index = index(of: podcast.id) {
                replace(at: index, with: podcast)
            } else {
                added.append(podcast)
            }
        }
        guard !added.isEmpty else { return }
        // Stable by id; a feed given twice keeps its last snapshot.
        let order = added.indices.sorted { (added[$0].id, $0) < (added[$1].id, $1) }
        var fresh: [Podcast] = []
        fresh.reserveCapacity(order.count)
        for i in order {
            if let last = fresh.last, last.id == added[i].id {
                fresh[fresh.count - 1] = added[i]
            } else {
                fresh.append(added[i])
            }
        }
        // Merge two id-ordered lists.
        var merged: [Podcast] = []
        merged.reserveCapacity(rows.count + fresh.count)
        var i = 0
        var j = 0
        while i < rows.count || j < fresh.count {
            if j == fresh.count || (i < rows.count && rows[i].id < fresh[j].id) {
                merged.append(rows[i])
                i += 1
            } else {
                merged.append(fresh[j])
                j += 1
            }
        }
        feedIDs = merged.map(\.id)  // will-change, then the list
        rows = merged
        noteAdded(fresh)
    }

    // Counts the added rows by status and logs them, or, when there are too many for the log
    // (the start), moves the log past every cursor handed out before so that it reads `nil`.
    private func noteAdded(_ fresh: [Podcast]) {
        for podcast in fresh { statusCounts[podcast.status, default: 0] += 1 }
        if fresh.count <= LibraryViewModel.bulkAddLogLimit {
            for podcast in fresh { logRowChange(podcast.id) }
        } else {
            rowChangeBase = rowChangeCursor + 1
            rowChanges.removeAll()
        }
    }

    /// Changes feed `id`'s snapshot in place; nothing happens if it is not in the library (or
    /// the change leaves the row equal). O(log N), no copy of the list.
    public func update(id: Int64, _ change: (inout Podcast) -> Void) {
        guard let index = index(of: id) else { return }
        var value = rows[index]
        change(&value)
        replace(at: index, with: value)
    }

    /// Removes feed `id` (unsubscribed), and its episodes from `newestEpisodes` (matched by the
    /// announcement's `feedID`, or by `feedURL` when it has none).
    public func remove(id: Int64) {
        guard let index = index(of: id) else { return }
        var ids = feedIDs
        ids.remove(at: index)
        feedIDs = ids
        let removed = rows.remove(at: index)
        watchers[id] = nil
        countOut(removed.status)
        logRowChange(id)
        // Its episodes leave the newest list too: their show notes and feed are gone.
        let kept = newestEpisodes.filter { $0.feedID.map { $0 != id } ?? ($0.feedURL != removed.url) }
        if kept.count != newestEpisodes.count { newestEpisodes = kept }
    }

    // Sends will-change, stores the row, then tells the feed's observable, if one is held.
    private func replace(at index: Int, with podcast: Podcast) {
        guard rows[index] != podcast else { return }
        objectWillChange.send()
        if rows[index].status != podcast.status {
            countOut(rows[index].status)
            statusCounts[podcast.status, default: 0] += 1
        }
        rows[index] = podcast
        logRowChange(podcast.id)
        if let watcher = watchers[podcast.id] {
            if watcher.observable == nil {
                watchers[podcast.id] = nil
            } else {
                watcher.subject.send(podcast)
            }
        }
    }

    private func countOut(_ status: Podcast.Status) {
        let left = statusCounts[status, default: 1] - 1
        statusCounts[status] = left > 0 ? left : nil
    }

    private func logRowChange(_ id: Int64) {
        rowChanges.append(id)
        if rowChanges.count > 2 * rowChangeCapacity {
            let dropped = rowChanges.count - rowChangeCapacity
            rowChanges.removeFirst(dropped)
            rowChangeBase += dropped
        }
    }

    // Drops the entries whose observable is gone; amortised O(1) per `observable(id:)`.
    private func pruneWatchers() {
        watchers = watchers.filter { $0.value.observable != nil }
        watcherPruneThreshold = max(64, watchers.count * 2)
    }

    // The position of `id` in `feedIDs` (binary search).
    private func index(of id: Int64) -> Int? {
        let position = insertionPoint(of: id)
        return position < feedIDs.count && feedIDs[position] == id ? position : nil
    }

    // The first position whose id is not below `id`.
    private func insertionPoint(of id: Int64) -> Int {
        var low = 0
        var high = feedIDs.count
        while low < high {
            let mid = (low + high) / 2
            if feedIDs[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Fills `newestEpisodes` with episodes known from before this run (newest first, as the
    /// store's `recentEpisodes` gives them), so a restarted daemon does not show "(none yet)".
    /// Touches neither the journal nor `totalNew` nor any `newCount`: nothing is announced.
    public func loadNewest(_ episodes: [EpisodeAnnouncement]) {
        newestEpisodes = Array(episodes.prefix(newestCapacity))
    }

    /// Appends `event` to the journal; a `.newEpisode` also goes to `newestEpisodes` and counts
    /// in `totalNew` and in the feed's `newCount` when `feedID` is given. Returns the entry's
    /// `sequence`.
    @discardableResult
    public func record(_ event: FeedEvent, feedID: Int64? = nil) -> Int {
        let sequence = nextSequence
        objectWillChange.send()
        journalStorage.append(JournalEntry(sequence: nextSequence, event: event))
        nextSequence += 1
        if journalStorage.count - journalStart > journalCapacity { journalStart += 1 }
        if journalStart >= journalCapacity {
            journalStorage.removeFirst(journalStart)
            journalStart = 0
        }
        if case .newEpisode(var episode) = event {
            if episode.feedID == nil { episode.feedID = feedID }  // so `remove(id:)` finds it
            var list = newestEpisodes
            let index = list.firstIndex { LibraryViewModel.isNewer(episode, than: $0) } ?? list.endIndex
            list.insert(episode, at: index)
            newestEpisodes = Array(list.prefix(newestCapacity))
            totalNew += 1
            if let feedID { update(id: feedID) { $0.newCount += 1 } }
        }
        return sequence
    }

    // `a` goes before `b`: a later date, or a known date against an unknown one; on a tie the
    // newcomer `a` goes first.
    private static func isNewer(_ a: EpisodeAnnouncement, than b: EpisodeAnnouncement) -> Bool {
        switch (a.published, b.published) {
        case (let x?, let y?): return x >= y
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): return true
        }
    }
}
