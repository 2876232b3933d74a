import Foundation
import LoopScheduler
import PodcastFeeds
import PodcastStore

/// The daemon's download job: queues each newly announced episode of a downloading feed,
/// runs at most `maxConcurrent` `EpisodeDownload`s at once (at most `maxPerHost` per host and
/// port), shares the rate limit among them, retries failures with the feed polls' backoff,
/// applies retention after each completion, and keeps `model` (the views) and the store current.
///
/// State lives in the store (`DownloadLedger`), so `start()` picks up where a stopped, killed or
/// rebooted run left off: pending and interrupted downloads resume from their `.part` files,
/// failed ones at their next retry time.
///
/// Events: `onEvent` gets `download_started`, `download_progress` (at most once a second per
/// download, by `clock`), `download_finished` and `download_failed`; `onDownloaded` gets each
/// completed record (the `downloaded` hooks).
///
/// Threading: loop thread only (the one `fetcher` and `deliver` use).
public final class DownloadQueue {
    /// The settings given at creation, or by the last `update(settings:)`.
    public private(set) var settings: DownloadSettings
    /// What the views show.
    public let model: DownloadsViewModel
    /// Called for every download event, on the loop thread.
    public var onEvent: ((DownloadEvent) -> Void)?
    /// Called for each completed download (after the store recorded it).
    public var onDownloaded: ((DownloadRecord) -> Void)?
    /// Warnings worth a line on stderr (store errors, retention that kept a file).
    public var onWarning: ((String) -> Void)?
    /// Called when the last download in flight or waiting ended and the retention it started
    /// finished (files deleted and the store updated): `run --once` waits for it (`isBusy`).
    public var onIdle: (() -> Void)?

    /// Timer service: run the closure after the seconds given; dropping the token cancels it.
    public typealias Schedule = (_ seconds: Double, _ action: @escaping () -> Void) -> Cancellable

    let ledger: any DownloadStoring
    private let fetcher: HTTPFetcher
    let deliver: PartFile.Deliver
    let now: () -> Date
    private let clock: () -> MonotonicInstant
    private let schedule: Schedule
    private var random: SystemRandomNumberGenerator

    struct Active {
        var download: EpisodeDownload
        var host: String
        var record: DownloadRecord
        var startBytes: Int64 = 0
        var started: MonotonicInstant
        var lastProgressEvent: MonotonicInstant?
        var lastStoredBytes: Int64 = 0
    }
    var active: [Int64: Active] = [:]
    var hostCounts: [String: Int] = [:]
    var waiting: [Int64] = []  // FIFO of episode ids ready to start
    var waitingRecords: [Int64: DownloadRecord] = [:]
    var retryTimers: [Int64: Cancellable] = [:]
    private var feedSettings: [Int64: FeedDownloadSettings] = [:]
    var running = false
    var retentionsInFlight = 0

    /// libcurl progress and data callbacks seen by the downloads in flight and ended (tests
    /// compare it with the views' redraws).
    public internal(set) var progressCallbacks = 0

    /// A queue over `store` (its `downloadLedger`) fetching with `fetcher` (the daemon's, so downloads share its multi
    /// handle and connections), writing files through `deliver` (an `EventLoop.execute`).
    public init(
        store: any FeedStoring, fetcher: HTTPFetcher, settings: DownloadSettings,
        model: DownloadsViewModel = DownloadsViewModel(),
        deliver: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, schedule: @escaping Schedule,
        now: @escaping () -> Date = Date.init, clock: @escaping () -> MonotonicInstant = MonotonicInstant.now
    ) {
        self.ledger = store.downloadLedger
        self.fetcher = fetcher
        self.settings = settings
        self.model = model
        self.deliver = deliver
        self.schedule = schedule
        self.now = now
        self.clock = clock
        self.random = SystemRandomNumberGenerator()
    }

    /// A queue on `loop` (files written off the loop, delivered back with `loop.execute`; retry
    /// timers are loop timers).
    public convenience init(
        store: any FeedStoring, fetcher: HTTPFetcher, settings: DownloadSettings, loop: EventLoop,
        model: DownloadsViewModel = DownloadsViewModel()
    ) {
        self.init(
            store: store, fetcher: fetcher, settings: settings, model: model,
            deliver: { [loop] work in loop.execute(work) },
            schedule: { [loop] seconds, action in
                loop.scheduleTimer(after: .milliseconds(Int(PollPolicy.clampedDelay(seconds) * 1000)), action)
            })
    }

    /// Downloads in flight.
    public var activeCount: Int { active.count }
    /// Downloads waiting for a slot.
    public var waitingCount: Int { waiting.count }
    /// Whether a download is in flight or waiting, or retention is deleting files and has not
    /// yet recorded it: `run --once` exits only when this is false.
    public var isBusy: Bool { !active.isEmpty || !waiting.isEmpty || retentionsInFlight > 0 }

    /// Resumes what the store has unfinished: pending and interrupted downloads are queued now,
    /// failed ones at their retry time (none without one). A stored byte count ahead of its
    /// `.part` file (a killed run) is first brought down to the file's size
    /// (`DownloadLedger.reconcileWithPartFiles`: one `lstat` per unfinished download, once per
    /// run). Throws `StoreError`.
    public func start() throws {
        guard !running else { return }
        running = true
        try ledger.reconcileWithPartFiles()
        takeRequests()
        for record in try ledger.unfinished() {
            switch record.state {
            case .pending, .downloading:
                enqueueReady(record)
            case .failed:
                if let next = record.nextRetry { scheduleRetry(record, at: next) }
            case .done, .deleted:
                break
            }
        }
        admit()
    }

    /// Stops every transfer (their bytes are written and kept as `.part` files, waiting for the
    /// writes: the process may exit next; the store records them as pending, so the next start
    /// resumes them) and every retry timer.
    public func stop() {
        guard running else { return }
        running = false
        for timer in retryTimers.values { timer.cancel() }
        retryTimers.removeAll()
        waiting.removeAll()
        waitingRecords.removeAll()
        for (id, entry) in active.sorted(by: { $0.key < $1.key }) {
            progressCallbacks += entry.download.callbackCount
            let bytes = entry.download.bytes
            entry.download.stop()
            // The process may exit next: what libcurl delivered must reach the disk first.
            entry.download.waitForFile()
            try? ledger.markInterrupted(episodeID: id, bytes: bytes)
            model.remove(id: id)
        }
        active.removeAll()
        hostCounts.removeAll()
        model.setWaiting(0)
    }

    /// Every libcurl progress or data callback so far, counting the downloads in flight.
    public var totalProgressCallbacks: Int {
        progressCallbacks + active.values.reduce(0) { $0 + $1.download.callbackCount }
    }

    /// Queues the primary enclosure of a newly announced episode (`episodeID` in the store) if
    /// its feed downloads (`settings.allFeeds` or the feed's own setting) and it has an
    /// http(s) enclosure. Idempotent: an episode already queued is left as it is. Before
    /// `start()` it is only recorded (and started by `start()`).
    public func announced(_ episode: EpisodeAnnouncement, episodeID: Int64) {
        guard let feedID = episode.feedID, let url = episode.url, case .http = FetchTarget(url) else {
            return
        }
        let feed = feedSettingsFor(feedID)
        guard feed.download ?? settings.allFeeds else { return }
        let fields = DownloadNaming.Fields(
            podcast: episode.podcastTitle, title: episode.title, guid: episode.guid, episodeID: episodeID,
            date: episode.published ?? episode.time, url: url, mimeType: episode.mimeType)
        do {
            guard let record = try queueNamed(fields, feedID: feedID, length: episode.length) else { return }
            guard running else { return }
            enqueueReady(record)
            admit()
        } catch {
            onWarning?("cannot queue the download of \(TerminalText.line(episode.title ?? url)): \(error)")
        }
    }

    // A new download row for `fields` under the current directory and name template (`nil`:
    // the episode was queued before).
    func queueNamed(_ fields: DownloadNaming.Fields, feedID: Int64, length: Int64?) throws -> DownloadRecord? {
        let relative = settings.naming.relativePath(for: fields)
        let directory = settings.directory.hasSuffix("/") ? String(settings.directory.dropLast()) : settings.directory
        return try ledger.enqueue(
            episodeID: fields.episodeID, feedID: feedID, url: fields.url, total: length, queued: now(),
            candidate: { directory + "/" + DownloadNaming.numbered(relative, $0) })
    }

    /// Forgets cached per-feed settings (after SIGHUP: `add --download` may have changed them),
    /// and cancels the downloads of removed feeds (their rows went with the feed): a transfer in
    /// flight stops and its `.part` is deleted; waiting ones and retries are dropped. Completed
    /// files stay on disk.
    public func reloadSettings() {
        feedSettings.removeAll()
        let busy = isBusy
        followStore()
        for id in active.keys.sorted() where isForgotten(id) {
            guard let entry = active.removeValue(forKey: id) else { continue }
            progressCallbacks += entry.download.callbackCount
            entry.download.stop(.remove)
            let left = hostCounts[entry.host, default: 1] - 1
            hostCounts[entry.host] = left > 0 ? left : nil
            model.remove(id: id)
        }
        for id in waiting where isForgotten(id) { waitingRecords[id] = nil }
        waiting.removeAll { waitingRecords[$0] == nil }
        for id in retryTimers.keys.sorted() where isForgotten(id) { retryTimers.removeValue(forKey: id)?.cancel() }
        admit()
        if busy && !isBusy { onIdle?() }
    }

    /// A reload changed `run`'s download options: downloads queued from now on use the new
    /// directory, name template and `allFeeds`; the limits apply at once (a higher
    /// `maxConcurrent` or `maxPerHost` starts waiting downloads now, a lower one lets those in
    /// flight finish and starts no more until under it); the rate is shared anew among the
    /// transfers in flight (0: each unlimited again); `keep` applies from the next completion.
    /// A download already named keeps its path (its `.part` is there). Loop thread.
    public func update(settings new: DownloadSettings) {
        let old = settings
        settings = new
        if new.bytesPerSecond == 0 && old.bytesPerSecond > 0 {
            for entry in active.values { entry.download.setRate(0) }
        }
        admit()
    }

    // Whether the store no longer has episode `id`'s download (a store error: keep it).
    private func isForgotten(_ id: Int64) -> Bool {
        do { return try ledger.record(episodeID: id) == nil } catch { return false }
    }

    func feedSettingsFor(_ feedID: Int64) -> FeedDownloadSettings {
        if let cached = feedSettings[feedID] { return cached }
        let loaded = (try? ledger.settings(feedID: feedID)) ?? FeedDownloadSettings()
        feedSettings[feedID] = loaded
        return loaded
    }

    func enqueueReady(_ record: DownloadRecord) {
        guard active[record.episodeID] == nil, waitingRecords[record.episodeID] == nil else { return }
        waitingRecords[record.episodeID] = record
        waiting.append(record.episodeID)
        model.setWaiting(waiting.count)
    }

    // Starts waiting downloads while the limits allow, in queue order (one busy host does not
    // hold back the others).
    func admit() {
        guard running else { return }
        var index = 0
        while index < waiting.count, active.count < settings.maxConcurrent {
            let id = waiting[index]
            guard var record = waitingRecords[id] else {
                waiting.remove(at: index)
                continue
            }
            // A retry (or resume) fetches what the feed links now, not what it linked when queued.
            if let moved = try? ledger.followEnclosure(record) {
                record = moved
                waitingRecords[id] = moved
            }
            let host = PodcastDaemon<LoopScheduler>.hostKey(record.url) ?? ""
            if hostCounts[host, default: 0] >= settings.maxPerHost {
                index += 1
                continue
            }
            waiting.remove(at: index)
            waitingRecords[id] = nil
            begin(record, host: host)
        }
        model.setWaiting(waiting.count)
        shareRate()
    }

    private func begin(_ record: DownloadRecord, host: String) {
        let file = PartFile(path: record.path, keepFree: settings.keepFreeBytes, deliver: deliver)
        var options = StreamOptions()
        options.lowSpeedSeconds = settings.stallSeconds
        // The feed's own figure (the record's total may be a server's since).
        let declared = (try? ledger.declaredLength(episodeID: record.episodeID)) ?? nil
        let download = EpisodeDownload(
            record: record, fetcher: fetcher, file: file, limits: settings.limits, options: options,
            byteLimit: settings.byteLimit(declaredLength: declared), declaredLength: declared)
        let id = record.episodeID
        active[id] = Active(download: download, host: host, record: record, started: clock())
        hostCounts[host, default: 0] += 1
        download.onStarted = { [weak self] bytes in self?.started(id, bytes: bytes) }
        download.onResponse = { [weak self] etag, lastModified, total in
            guard let self else { return }
            try? self.ledger.noteResponse(episodeID: id, etag: etag, lastModified: lastModified, total: total)
        }
        download.onProgress = { [weak self] bytes, total in self?.progressed(id, bytes: bytes, total: total) }
        download.onFinish = { [weak self] outcome in self?.finished(id, outcome) }
        download.start()
    }

    private func started(_ id: Int64, bytes: Int64) {
        guard var entry = active[id] else { return }
        entry.startBytes = bytes
        entry.started = clock()
        entry.lastProgressEvent = entry.started
        entry.lastStoredBytes = bytes
        active[id] = entry
        try? ledger.markDownloading(episodeID: id, bytes: bytes)
        let record = entry.record
        model.upsert(
            DownloadProgress(
                id: id, podcastTitle: record.podcastTitle, episodeTitle: record.episodeTitle, path: record.path,
                bytes: bytes, total: record.total))
        var event = self.event(.started, record, bytes: bytes)
        event.total = record.total
        onEvent?(event)
    }

    private func progressed(_ id: Int64, bytes: Int64, total: Int64?) {
        guard var entry = active[id] else { return }
        let instant = clock()
        let elapsed = Double(entry.started.distance(to: instant).nanoseconds) / 1e9
        let rate = elapsed > 0.2 ? Double(bytes - entry.startBytes) / elapsed : 0
        model.update(id: id, bytes: bytes, total: total, bytesPerSecond: max(0, rate))
        // At most one progress event a second per download; the bytes reach the store at the
        // same pace, so `downloads` shows a live figure and a crash loses at most a second's.
        if let last = entry.lastProgressEvent, last.distance(to: instant).nanoseconds < 1_000_000_000 { return }
        entry.lastProgressEvent = instant
        if bytes != entry.lastStoredBytes {
            entry.lastStoredBytes = bytes
            try? ledger.noteBytes(episodeID: id, bytes: bytes)
        }
        active[id] = entry
        var event = self.event(.progress, entry.record, bytes: bytes)
        event.total = total
        event.bytesPerSecond = max(0, rate)
        onEvent?(event)
    }

    private func finished(_ id: Int64, _ outcome: EpisodeDownload.Outcome) {
        guard let entry = active.removeValue(forKey: id) else { return }
        progressCallbacks += entry.download.callbackCount
        let left = hostCounts[entry.host, default: 1] - 1
        hostCounts[entry.host] = left > 0 ? left : nil
        let record = entry.record
        let seconds = Double(entry.started.distance(to: clock()).nanoseconds) / 1e9
        switch outcome {
        case .done(let bytes):
            do {
                try ledger.markDone(episodeID: id, bytes: bytes, finished: now(), seconds: seconds)
            } catch {
                onWarning?("cannot record the finished download \(record.path): \(error)")
            }
            model.end(id: id, finished: true)
            var event = self.event(.finished, record, bytes: bytes)
            event.seconds = seconds
            onEvent?(event)
            if let done = try? ledger.record(episodeID: id) { onDownloaded?(done) }
            applyRetention(feedID: record.feedID)
        case .failed(let message, let bytes, let permanent):
            let attempts = record.attempts + 1
            let limit = permanent ? min(3, settings.maxAttempts) : settings.maxAttempts
            var nextRetry: Date?
            if attempts < limit {
                let delay = settings.retry.backoff(failures: attempts, interval: nil)
                let jitter = 1 + settings.retry.jitterFraction * (Double.random(in: -1...1, using: &random))
                nextRetry = now().addingTimeInterval(delay * jitter)
            }
            try? ledger.markFailed(episodeID: id, error: message, bytes: bytes, nextRetry: nextRetry)
            model.end(id: id, finished: false)
            var event = self.event(.failed, record, bytes: bytes)
            event.error = message
            event.attempts = attempts
            event.nextRetry = nextRetry
            onEvent?(event)
            if let nextRetry, var again = try? ledger.record(episodeID: id) {
                again.nextRetry = nextRetry
                scheduleRetry(again, at: nextRetry)
            }
        case .tooLarge(let message):
            // Refused for good: another attempt would fetch the same file (the part is gone).
            try? ledger.markFailed(episodeID: id, error: message, bytes: 0, nextRetry: nil)
            model.end(id: id, finished: false)
            var event = self.event(.failed, record, bytes: 0)
            event.error = message
            event.attempts = record.attempts + 1
            onEvent?(event)
            onWarning?("download of \(TerminalText.line(record.path)) refused: \(message); not retried")
        case .nameTaken:
            // Someone else's file has the name: take the next free one and go again at once.
            let (base, taken) = DownloadNaming.unnumbered(record.path)
            var n = taken + 1
            var path = DownloadNaming.numbered(base, n)
            while (try? ledger.isTaken(path, except: id)) == true {
                n += 1
                path = DownloadNaming.numbered(base, n)
            }
            if n > 1000 || (try? ledger.rename(episodeID: id, to: path)) == nil {
                model.end(id: id, finished: false)
            } else if var again = try? ledger.record(episodeID: id) {
                again.path = path
                model.remove(id: id)
                enqueueReady(again)
            }
        }
        admit()
        if !isBusy { onIdle?() }
    }

    private func scheduleRetry(_ record: DownloadRecord, at date: Date) {
        let id = record.episodeID
        retryTimers[id] = schedule(max(0, date.timeIntervalSince(now()))) { [weak self] in
            guard let self, self.running else { return }
            self.retryTimers[id] = nil
            guard let fresh = try? self.ledger.record(episodeID: id), fresh.state == .failed else { return }
            self.enqueueReady(fresh)
            self.admit()
        }
    }

    // The rate limit, split evenly among the transfers in flight.
    private func shareRate() {
        guard settings.bytesPerSecond > 0, !active.isEmpty else { return }
        let each = max(1, settings.bytesPerSecond / Int64(active.count))
        for entry in active.values { entry.download.setRate(each) }
    }

    private func applyRetention(feedID: Int64) {
        guard let keep = feedSettingsFor(feedID).keep ?? settings.keep else { return }
        guard let doomed = try? ledger.doneBeyond(feedID: feedID, keep: keep), !doomed.isEmpty else { return }
        retentionsInFlight += 1
        DownloadRetention.delete(doomed, deliver: deliver) { [weak self] results in
            guard let self else { return }
            self.retentionsInFlight -= 1
            defer { if !self.isBusy { self.onIdle?() } }
            for (record, outcome) in results {
                switch outcome {
                case .deleted, .missing:
                    try? self.ledger.markDeleted(episodeID: record.episodeID)
                case .kept(let reason):
                    try? self.ledger.markDeleted(episodeID: record.episodeID)
                    self.onWarning?("retention kept \(TerminalText.line(record.path)): \(reason)")
                }
            }
        }
    }

    /// The announcement a `downloaded` hook gets for `record`: the episode's details from the
    /// store, with `file` set to the downloaded path.
    public func announcement(for record: DownloadRecord) -> EpisodeAnnouncement {
        var a = EpisodeAnnouncement(
            time: record.finished ?? now(), feedURL: record.feedURL ?? "", podcastTitle: record.podcastTitle,
            title: record.episodeTitle, guid: nil, url: record.url)
        if let details = ledger.episodeDetails(episodeID: record.episodeID) {
            a.guid = details.guid
            a.link = details.link
            a.published = details.published
            a.duration = details.duration
            a.mimeType = details.mimeType
            a.length = details.length
        }
        a.feedID = record.feedID
        a.file = record.path
        return a
    }

    private func event(_ kind: DownloadEvent.Kind, _ record: DownloadRecord, bytes: Int64) -> DownloadEvent {
        DownloadEvent(
            kind: kind, time: now(), episodeID: record.episodeID, feedURL: record.feedURL,
            podcastTitle: record.podcastTitle, episodeTitle: record.episodeTitle, episodeURL: record.url,
            path: record.path, bytes: bytes)
    }
}
