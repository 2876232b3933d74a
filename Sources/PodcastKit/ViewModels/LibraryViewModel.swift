import Foundation
import ViewModelKit

/// The library of subscribed feeds as the views see it: one `Observable<Podcast>` per feed, the
/// newest episodes, the totals, and a journal of recent events (for the JSON-lines view).
///
/// It is an `ObservableObject` whose `objectWillChange` also fires when any feed's
/// `Observable<Podcast>` changes, so an observer that declares `@ViewModel var library` is
/// updated for every change, once per loop iteration.
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

    /// The feeds, in subscription order (by id). Each one changes on its own.
    @Published public private(set) var podcasts: [Observable<Podcast>] = []
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

    private var subjects: [Int64: CurrentValueSubject<Podcast, Never>] = [:]
    private var relays: [Int64: AnyCancellable] = [:]
    private var nextSequence = 1
    // The journal is journalStorage[journalStart...]: dropping the oldest entry moves the start,
    // and the storage is compacted once the dropped prefix reaches the capacity (amortised O(1)
    // per event instead of shifting up to `journalCapacity` entries each time).
    private var journalStorage: [JournalEntry] = []
    private var journalStart = 0

    /// An empty library.
    public init(newestCapacity: Int = 50, journalCapacity: Int = 4096) {
        self.newestCapacity = max(1, newestCapacity)
        self.journalCapacity = max(1, journalCapacity)
    }

    /// The current snapshots, in display order.
    public var snapshots: [Podcast] { podcasts.map(\.value) }

    /// The snapshot of feed `id`, if subscribed.
    public func podcast(id: Int64) -> Podcast? { subjects[id]?.value }

    /// Adds feed `podcast.id`, or replaces its snapshot when it is already there (an equal
    /// snapshot changes nothing and notifies nobody).
    public func upsert(_ podcast: Podcast) {
        if let subject = subjects[podcast.id] {
            if subject.value != podcast { subject.send(podcast) }
            return
        }
        let subject = CurrentValueSubject<Podcast, Never>(podcast)
        let observable = subject.asObservable()
        subjects[podcast.id] = subject
        relays[podcast.id] = observable.objectWillChange.sink { [weak self] _ in self?.objectWillChange.send() }
        var list = podcasts
        let index = list.firstIndex { $0.value.id > podcast.id } ?? list.endIndex
        list.insert(observable, at: index)
        podcasts = list
    }

    /// Adds or replaces several feeds, as `upsert(_:)` does for each, but changes `podcasts` at
    /// most once (adding N feeds one by one copies the list N times).
    public func upsert(contentsOf snapshots: [Podcast]) {
        var added: [Observable<Podcast>] = []
        for podcast in snapshots {
            if let subject = subjects[podcast.id] {
                if subject.value != podcast { subject.send(podcast) }
                continue
            }
            let subject = CurrentValueSubject<Podcast, Never>(podcast)
            let observable = subject.asObservable()
            subjects[podcast.id] = subject
            relays[podcast.id] = observable.objectWillChange.sink { [weak self] _ in self?.objectWillChange.send() }
            added.append(observable)
        }
        guard !added.isEmpty else { return }
        var list = podcasts
        list.append(contentsOf: added)
        list.sort { $0.value.id < $1.value.id }
        podcasts = list
    }

    /// Changes feed `id`'s snapshot in place; nothing happens if it is not in the library.
    public func update(id: Int64, _ change: (inout Podcast) -> Void) {
        guard var value = subjects[id]?.value else { return }
        change(&value)
        upsert(value)
    }

    /// Removes feed `id` (unsubscribed).
    public func remove(id: Int64) {
        guard subjects.removeValue(forKey: id) != nil else { return }
        relays.removeValue(forKey: id)?.cancel()
        podcasts = podcasts.filter { $0.value.id != id }
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
        if case .newEpisode(let episode) = event {
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
