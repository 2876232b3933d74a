import Foundation
import PodcastEngine
import ViewModelKit

/// The web dashboard's view: a second `ViewModelObserver` of the same `LibraryViewModel` the
/// terminal view draws. Its `updateView()` runs once per loop iteration in which the library
/// changed, works out what changed since the last one (feeds changed or removed, the newest
/// episodes, the counts) and hands that to the `SSEHub` as **one** `update` event, so 50 feeds
/// finishing in one iteration reach each browser as one event. It also feeds the iteration's
/// journal events to `WebMetrics`.
///
/// It keeps no copy of the rows: the library's row change log (`changedFeedIDs(since:)`) names
/// the feeds changed, added or removed since the last update, and its status counts give the
/// header, so an update costs what changed, not the number of feeds. When the log no longer
/// reaches back (feeds added in bulk, or more row changes in one iteration than it keeps), every
/// client gets a `snapshot` event instead (`SSEHub.resync`).
///
/// Update event data (one JSON line): `feeds` (changed or added feeds, `WebJSON.feed`, in id
/// order), `removed` (ids), `episodes` (the whole newest-episodes list, `WebJSON.announcement`,
/// only when it changed), `counts` (`WebJSON.counts`), `downloads` (`WebJSON.downloads`: the
/// transfers in flight and the queue's counts, only when they changed; however many libcurl
/// progress callbacks ran in the iteration, one event carries them). The snapshot event has `feeds` (all),
/// `episodes` and `counts`.
///
/// Threading: create, use and release it on the thread of `updateScheduler`.
public final class WebView<UpdateScheduler: EventSourceScheduler>: ViewModelObserver {
    /// The library shown.
    @ViewModel public var library: LibraryViewModel
    /// The download queue shown (an empty model, never sent, when none was given).
    @ViewModel public var downloads: DownloadsViewModel
    /// Where updates run (`LoopScheduler.main` in the daemon, a `TestScheduler` in tests).
    public let updateScheduler: UpdateScheduler
    /// The event-stream clients updated.
    public let hub: SSEHub
    /// Episode counts and pages.
    public let data: WebLibraryData
    /// Where poll outcomes and announcements are counted, if anywhere.
    public let metrics: WebMetrics?
    /// How many times `updateView()` ran.
    public private(set) var updateCount = 0
    /// Updates after the first, priming one (which runs at creation and only records the
    /// state): the loop iterations in which the library changed. `view_updates_total`.
    public var changeUpdateCount: Int { max(0, updateCount - 1) }

    private var rowCursor = 0
    private var sentNewest: [EpisodeAnnouncement] = []
    private var sentCounts: OrderedJSON = .null
    private var lastSequence = 0
    private var primed = false
    private var sentDownloads: OrderedJSON = .null
    private let showsDownloads: Bool

    /// A view of `data.library` publishing to `hub` (whose snapshots it then builds). Runs its
    /// first update at once, which only records the state (no event: nobody has seen anything).
    public init(
        data: WebLibraryData, hub: SSEHub, scheduler: UpdateScheduler, metrics: WebMetrics? = nil,
        downloads: DownloadsViewModel? = nil
    ) {
        self._downloads = ViewModel(wrappedValue: downloads ?? DownloadsViewModel())
        self.showsDownloads = downloads != nil
        self.data = data
        self.hub = hub
        self.metrics = metrics
        self.updateScheduler = scheduler
        self._library = ViewModel(wrappedValue: data.library)
        hub.snapshot = { [weak self] in
            self.map { String(decoding: $0.snapshotJSON().utf8Bytes, as: UTF8.self) } ?? "{}"
        }
        bindViewModels()
    }

    /// Publishes what changed since the last update as one `update` event (nothing when
    /// nothing the page shows changed).
    public nonisolated func updateView() {
        updateCount += 1
        if let metrics {
            for entry in library.journalEntries(after: lastSequence) { metrics.record(entry.event) }
        }
        lastSequence = library.lastSequence
        guard primed else {
            primed = true
            markCurrent()  // nobody has seen anything yet: nothing to send
            return
        }

        // Only the rows the library says changed since the last update (`changedFeedIDs`): the
        // work follows the changes, not the number of feeds. When the log no longer reaches
        // back (feeds added in bulk, or more changes than it keeps), which feeds went is not
        // known: every client gets the whole state instead (`SSEHub.resync`).
        guard let changedIDs = library.changedFeedIDs(since: rowCursor) else {
            markCurrent()
            hub.resync()
            return
        }
        rowCursor = library.rowChangeCursor
        var changed: [OrderedJSON] = []
        var removed: [Int64] = []
        for id in changedIDs {
            if let p = library.podcast(id: id) {
                changed.append(WebJSON.feed(p, episodeCount: data.episodeCount(p)))
            } else {
                removed.append(id)
            }
        }
        let newest = library.newestEpisodes
        let newestChanged = newest != sentNewest
        sentNewest = newest
        let counts = WebJSON.counts(
            feeds: library.count, byStatus: library.countsByStatus, totalNew: library.totalNew)
        let countsChanged = counts != sentCounts
        sentCounts = counts
        let transfers = showsDownloads ? WebJSON.downloads(downloads) : .null
        let downloadsChanged = transfers != sentDownloads
        sentDownloads = transfers
        guard !changed.isEmpty || !removed.isEmpty || newestChanged || countsChanged || downloadsChanged else {
            return
        }
        var fields: [(String, OrderedJSON)] = [
            ("feeds", .array(changed)), ("removed", .array(removed.map { .int($0) })),
        ]
        if newestChanged { fields.append(("episodes", .array(newest.map(WebJSON.announcement)))) }
        fields.append(("counts", counts))
        if downloadsChanged { fields.append(("downloads", transfers)) }
        hub.publish(String(decoding: OrderedJSON.object(fields).utf8Bytes, as: UTF8.self))
    }

    // The state now becomes what the clients have: the next update starts from here.
    private func markCurrent() {
        rowCursor = library.rowChangeCursor
        sentNewest = library.newestEpisodes
        sentCounts = WebJSON.counts(feeds: library.count, byStatus: library.countsByStatus, totalNew: library.totalNew)
        sentDownloads = showsDownloads ? WebJSON.downloads(downloads) : .null
    }

    /// The full state: `feeds`, `episodes`, `counts`, and `downloads` when the view was given a
    /// downloads model.
    public func snapshotJSON() -> OrderedJSON {
        let podcasts = library.snapshots
        var fields: [(String, OrderedJSON)] = [
            ("feeds", .array(podcasts.map(data.feedJSON))),
            ("episodes", .array(library.newestEpisodes.map(WebJSON.announcement))),
            ("counts", WebJSON.counts(podcasts, totalNew: library.totalNew)),
        ]
        if showsDownloads { fields.append(("downloads", WebJSON.downloads(downloads))) }
        return .object(fields)
    }
}
