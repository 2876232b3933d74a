import Foundation
import PodcastEngine
import ViewModelKit

/// The live terminal table: a `ViewModelObserver` of the library that redraws the whole screen
/// (ANSI clear + home) in `updateView()`, so once per loop iteration however many feeds changed.
/// Use it only when stdout is a terminal; otherwise use `JSONLinesView`.
///
/// Threading: create, use and release it on the thread of `updateScheduler`.
public final class TerminalView<UpdateScheduler: EventSourceScheduler>: ViewModelObserver {
    /// The library shown.
    @ViewModel public var library: LibraryViewModel
    /// The downloads shown (bars under the header); an empty model shows none.
    @ViewModel public var downloads: DownloadsViewModel
    /// Where updates run (`LoopScheduler.main` in the daemon, a `TestScheduler` in tests).
    public let updateScheduler: UpdateScheduler
    /// Draws a frame.
    public var renderer: TerminalRenderer
    /// How many times `updateView()` ran (the coalescing tests count them).
    public private(set) var updateCount = 0

    private let write: (String) throws -> Void
    private let delivered: ((Int) -> Void)?
    /// Called with the error when `write` throws; nothing of that update counts as delivered.
    public var onWriteError: ((any Error) -> Void)?

    /// A view of `library` that writes frames with `write` (a throwing `write` means the frame
    /// was not shown: `onWriteError` gets the error and `delivered` is not called). Draws the first frame at once.
    /// After each frame, `delivered` gets the `sequence` of the newest journal entry the frame
    /// includes (0 when the journal is empty): `PodcastDaemon.outputDelivered(throughSequence:)`.
    public init(
        library: LibraryViewModel, scheduler: UpdateScheduler, renderer: TerminalRenderer,
        write: @escaping (String) throws -> Void, delivered: ((Int) -> Void)? = nil,
        onWriteError: ((any Error) -> Void)? = nil, downloads: DownloadsViewModel = DownloadsViewModel()
    ) {
        self.onWriteError = onWriteError
        self.updateScheduler = scheduler
        self.renderer = renderer
        self._downloads = ViewModel(wrappedValue: downloads)
        self.write = write
        self.delivered = delivered
        self._library = ViewModel(wrappedValue: library)
        bindViewModels()
    }

    /// Draws one frame from the library's current state.
    public nonisolated func updateView() {
        updateCount += 1
        do {
            try write(
                renderer.render(
                    podcasts: library.snapshots, newest: library.newestEpisodes, totalNew: library.totalNew,
                    downloads: DownloadBars.lines(
                        active: downloads.active, waiting: downloads.waitingCount, finished: downloads.finishedCount,
                        failed: downloads.failedCount, width: max(40, renderer.width))))
        } catch {
            onWriteError?(error)  // not shown, so not confirmed: the announcements stay pending
            return
        }
        delivered?(library.lastSequence)
    }
}

/// The non-terminal output: a `ViewModelObserver` of the library that writes every journal
/// event it has not written yet as one JSON line (`FeedEvent.jsonLine`), in order. Events of one
/// loop iteration are written together by one `updateView()`.
///
/// Threading: create, use and release it on the thread of `updateScheduler`.
public final class JSONLinesView<UpdateScheduler: EventSourceScheduler>: ViewModelObserver {
    /// The library whose journal is written.
    @ViewModel public var library: LibraryViewModel
    /// Where updates run.
    public let updateScheduler: UpdateScheduler
    /// How many times `updateView()` ran.
    public private(set) var updateCount = 0
    /// The sequence number of the last event written.
    public private(set) var lastWritten = 0

    private let write: (String) throws -> Void
    private let delivered: ((Int) -> Void)?
    /// Called with the error when `write` throws; nothing of that update counts as delivered.
    public var onWriteError: ((any Error) -> Void)?

    /// A writer of `library`'s events. Events already in the journal are written on the first
    /// update (at once). When `write` throws, `onWriteError` gets the error and the lines stay
    /// unwritten (a later update tries them again). After lines were written, `delivered` gets the `sequence` of the last
    /// one: `PodcastDaemon.outputDelivered(throughSequence:)`.
    public init(
        library: LibraryViewModel, scheduler: UpdateScheduler, write: @escaping (String) throws -> Void,
        delivered: ((Int) -> Void)? = nil, onWriteError: ((any Error) -> Void)? = nil
    ) {
        self.onWriteError = onWriteError
        self.updateScheduler = scheduler
        self.write = write
        self.delivered = delivered
        self._library = ViewModel(wrappedValue: library)
        bindViewModels()
    }

    /// Writes the events not written yet. Safe to call again: nothing is written twice.
    public nonisolated func updateView() {
        updateCount += 1
        let fresh = library.journalEntries(after: lastWritten)
        guard let last = fresh.last else { return }
        do {
            try write(fresh.map(\.event.jsonLine).joined())
        } catch {
            onWriteError?(error)  // not written, so not confirmed: the announcements stay pending
            return
        }
        lastWritten = last.sequence
        delivered?(last.sequence)
    }
}
