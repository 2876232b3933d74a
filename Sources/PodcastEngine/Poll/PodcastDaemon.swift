import Foundation
import LoopScheduler
import PodcastFeeds
import PodcastStore

/// The poller: schedules each subscribed feed's polls on a scheduler, fetches, parses, applies
/// the result to the store in one transaction, reports events, runs hooks and keeps the
/// `LibraryViewModel` current.
///
/// - Conditional GET: the stored `ETag`/`Last-Modified` are sent; the store drops them after a
///   failure, so the refresh after a failed one is unconditional.
/// - Moves: a 301/308 chain and `itunes:new-feed-url` move the stored URL (the store refuses a
///   move onto another subscription, with a warning). A 301/308 is committed only with a
///   successful poll at its target (a feed, or a 304): a redirect loop, a chain past the
///   redirect limit or a failing target moves nothing.
/// - Scheduling follows `PollPolicy` (interval, jitter, backoff, 404 failing, 410 disabled);
///   the next poll time is stored with each update, so a restart resumes the schedule.
/// - At most `Configuration.maxConcurrentFetches` polls run at once, and at most
///   `maxFetchesPerHost` against one host (and port), so a few dead hosts cannot hold every slot
///   while healthy feeds wait for their timeouts. Due feeds wait in order, per host.
/// - Parsing runs on the `OffLoopExecutor` (a `WorkerPool` in `run`) within
///   `Configuration.parseBudget`; a feed stays busy (`polling`) until its parse is back. A poll
///   keeps at most `maxEpisodesPerPoll` items; a 304 to a request without validators and a
///   truncated body are failures, so neither spends the first-sync limit.
/// - `--once`: every enabled feed is polled once, then `onFinished` reports the failures.
/// - Announcements are delivered **at least once**. The store marks each announced episode
///   *pending* in the transaction that stores it; the daemon marks it delivered once every
///   output has it: `onEvent` returned, the view wrote it (`outputDelivered(throughSequence:)`,
///   when `Configuration.awaitsOutputConfirmation`) and the hook was started (when `hooks` is
///   set). `start()` re-emits the announcements still pending (the process died in between)
///   before any poll, so a consumer may see an episode twice, never zero times.
///
/// Threading: everything (calls, scheduler actions, fetch completions) on the scheduler's
/// thread, the main loop in the CLI. Next polls and parse budgets are entries of one
/// `PollDeadlines` heap served by a single (cancellable) scheduler timer, not a timer per feed;
/// an entry is made stale by the feed's generation number or fetch serial.
public final class PodcastDaemon<S: Scheduler> where S.SchedulerTimeType == MonotonicInstant {
    /// Turns a 2xx response into a feed; throws when the body is not a feed. Runs on the
    /// `OffLoopExecutor` given at creation (a worker thread in `run`), so it must be `Sendable`.
    public typealias Parse = @Sendable (FetchResponse) throws -> ParsedFeed

    /// How the daemon behaves.
    public struct Configuration: Sendable {
        /// Interval, jitter and backoff.
        public var policy: PollPolicy
        /// Seconds between polls for feeds without their own interval (`run --interval`); a
        /// feed's own interval (`add --interval`, even 3600) always wins. `nil`: the policy's
        /// `defaultInterval`.
        public var intervalOverride: Int?
        /// Poll each feed once, then finish (`run --once`).
        public var once: Bool
        /// Limits given to every fetch.
        public var limits: FetchLimits
        /// Polls in flight at most (fetching or parsing). Default 32.
        public var maxConcurrentFetches: Int
        /// Polls in flight at most against one host and port (HTTP(S) feeds; local files have no
        /// such limit). Default 4: polite to a host, and a CDN serving many of the feeds still
        /// gets them polled briskly.
        public var maxFetchesPerHost: Int
        /// When true, an announcement counts as delivered only once the view confirms it wrote it
        /// (`outputDelivered(throughSequence:)`); when false, once `onEvent` returned. The CLI
        /// sets it, since its JSON lines and terminal table are written by coalesced views.
        public var awaitsOutputConfirmation: Bool
        /// With `once`: also poll feeds that are backing off (they failed, or sent `Retry-After`)
        /// and whose stored next poll is still in the future. Off by default, so a cron job
        /// running `run --once` keeps to the backoff instead of hammering a failing server.
        public var onceIgnoresBackoff: Bool = false
        /// Seconds a parse may take once a worker started it; a document still parsing then is
        /// refused (the poll fails as unparseable, retried with backoff) and its late result is
        /// dropped. Timed on the daemon's scheduler. Default 10 s.
        public var parseBudget: Double = 10
        /// Most items kept from one poll: a feed listing more keeps its newest (by publication
        /// date; undated items count as oldest, document order breaks ties), with a warning.
        /// One 9.9 MB feed of 180,754 items took 17.5 s and 266 MB to store; the store's
        /// transaction runs on the loop thread, and 5,000 new items took 0.27 s there (debug
        /// build), 2,000 about a tenth of a second. Default 2,000.
        public var maxEpisodesPerPoll: Int = 2_000

        /// A configuration; defaults are those of `podcast-watch run`.
        public init(
            policy: PollPolicy = PollPolicy(), intervalOverride: Int? = nil, once: Bool = false,
            limits: FetchLimits = FetchLimits(), maxConcurrentFetches: Int = 32, maxFetchesPerHost: Int = 4,
            awaitsOutputConfirmation: Bool = false
        ) {
            self.policy = policy
            self.intervalOverride = intervalOverride
            self.once = once
            self.limits = limits
            self.maxConcurrentFetches = max(1, maxConcurrentFetches)
            self.maxFetchesPerHost = max(1, maxFetchesPerHost)
            self.awaitsOutputConfirmation = awaitsOutputConfirmation
        }
    }

    /// The view models the views observe.
    public let library: LibraryViewModel
    /// The configuration given at creation, with the changes a reload made
    /// (`setIntervalOverride(_:)`).
    public private(set) var configuration: Configuration
    /// Called for every event, after the store has committed it and after `library` has it.
    public var onEvent: ((FeedEvent) -> Void)?
    /// Called with warnings worth a line on stderr (store warnings, refused moves).
    public var onWarning: ((String) -> Void)?
    /// Called once when the daemon cannot go on (a store error), with the error; it has stopped.
    public var onFatalError: ((Error) -> Void)?
    /// In `once` mode: called once when every feed has been polled, with the ids of the feeds
    /// whose poll failed (empty: all succeeded).
    public var onFinished: ((_ failedFeedIDs: [Int64]) -> Void)?
    /// Called right after a poll's update was committed to the store, before anything about it
    /// is reported or announced (metrics; the CLI's crash-test failpoint).
    public var onCommitted: ((FeedUpdateResult) -> Void)?
    /// Runs the `--hook` for each new episode, if set.
    public var hooks: HookRunner?
    /// Called with each announcement issued (also one re-issued at start) and the episode's
    /// store id, before it can count as delivered: `run --download` queues it here.
    public var onAnnounced: ((EpisodeAnnouncement, _ episodeID: Int64) -> Void)?

    /// Whether `start()` was called and `stop()` was not.
    public private(set) var isRunning = false
    /// Fetches in flight now.
    public var inFlightCount: Int { fetching }
    /// Polls completed since start (each applied to the store).
    public private(set) var completedPolls = 0
    /// Announcements issued but not yet confirmed delivered (waiting for the view or the hook).
    public var undeliveredCount: Int { deliveries.count }

    private let store: FeedStore
    private let fetcher: FeedFetching
    private let parse: Parse
    private let offLoop: OffLoopExecutor
    private let scheduler: S
    private let now: () -> Date
    private var random: () -> UInt64

    private var slots = SlotTable()
    // The tokens of the polls in flight (at most `maxConcurrentFetches`), not one per feed.
    private struct InFlight {
        var fetch: Cancellable?
        var parse: Cancellable?  // the parse of the fetched body, on `offLoop`
        var budget: ParseBudget?  // set once a worker started the parse
    }
    // What a parse's budget needs when it runs out: the parse to stop, and the response it was
    // of, without its body (the poll fails with it).
    private struct ParseBudget {
        var cancellation: ParseCancellation
        var response: FetchResponse
        var seconds: Double
    }
    // Every feed's next poll and every parse's budget, behind one scheduler timer.
    private var deadlines = PollDeadlines()
    private var deadlineTimer: Cancellable?
    private var armedDeadline: MonotonicInstant?
    private var inFlight: [Int64: InFlight] = [:]
    // What `start()` does with a feed once every slot is made.
    private enum Start {
        case now
        case at(Date?)
        case skip
    }
    // Counters kept in step with the slots, so a poll and a completion cost O(1) rather than a
    // scan of every feed (O(N²) per cycle over thousands of feeds).
    private var fetching = 0  // slots with isFetching
    // Per host: polls in flight, and due feeds over the host's limit, in order (entries also in
    // `waitingSet`).
    private var hosts = HostTable()
    private var unpolled = Set<Int64>()  // enabled slots not polled once yet (`once` mode's end)
    // Due but over the concurrency limit, in order: a queue read from `waitingHead`, with
    // `waitingSet` for membership. An id dropped while queued leaves a stale entry, skipped.
    private var waiting: [Int64] = []
    private var waitingHead = 0
    private var waitingSet = Set<Int64>()
    private var onceFailures: [Int64] = []
    private var reportedWarnings: [Int64: Set<String>] = [:]  // per feed: warnings already reported
    private var onceReported = false

    // Announcements waiting for their outputs, by episode row id.
    private struct Delivery {
        var journalSequence: Int
        var awaitingOutput: Bool
        var awaitingHook: Bool
    }
    private var deliveries: [Int64: Delivery] = [:]
    private var confirmed: [Int64] = []  // delivered, not yet written to the store
    private var batchingConfirmations = false

    /// A daemon over `store`, fetching with `fetcher`, parsing with `parse` on `offLoop` (pass a
    /// `WorkerPool` to keep parsing off the loop thread; the default `InlineExecutor` parses in
    /// place, for virtual-clock tests), timing with `scheduler`. `now` is the wall clock (stored
    /// dates); `random` feeds the jitter.
    public init(
        store: FeedStore, fetcher: FeedFetching, parse: @escaping Parse, offLoop: OffLoopExecutor = InlineExecutor(),
        scheduler: S, configuration: Configuration = Configuration(), library: LibraryViewModel = LibraryViewModel(),
        now: @escaping () -> Date = Date.init, random: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) }
    ) {
        self.store = store
        self.fetcher = fetcher
        self.parse = parse
        self.offLoop = offLoop
        self.scheduler = scheduler
        self.configuration = configuration
        self.library = library
        self.now = now
        self.random = random
    }

    // MARK: Life cycle

    /// Loads the subscriptions, re-emits the announcements still pending from an earlier run
    /// (oldest first, with the time they were first announced), then schedules the polls:
    /// overdue, never-polled (and in `once` mode all) feeds at once, the others at their stored
    /// next poll time. Disabled feeds are shown but not polled. Throws `StoreError`.
    public func start() throws {
        guard !isRunning else { return }
        let pending = try store.pendingAnnouncements()
        let recentEpisodes = try store.recentEpisodes(limit: library.newestCapacity)
        // The feeds are read row by row into slots and library rows: an array of every
        // `FeedRecord` (about 500 B each) was the start's peak at 100,000 feeds.
        var rows: [Podcast] = []
        var starts: [(id: Int64, start: Start)] = []
        try store.forEachFeed { record in
            register(record, publish: false)
            var row = snapshot(record, keeping: nil)
            row.url = slots[record.id]!.url  // one copy of the URL for the slot and the row
            rows.append(row)
            guard record.enabled else { return }
            if configuration.once && !configuration.onceIgnoresBackoff && isBackingOff(record) {
                starts.append((record.id, .skip))
            } else {
                starts.append((record.id, configuration.once ? .now : .at(record.nextPoll)))
            }
        }
        var records: [Int64: FeedRecord] = [:]  // the few feeds with recent or pending episodes
        func record(_ id: Int64) throws -> FeedRecord? {
            if let known = records[id] { return known }
            let found = try store.feed(id: id)
            records[id] = found
            return found
        }
        let recent = try recentEpisodes.compactMap { e in
            try record(e.feedID).map { PodcastDaemon.announcement(e, feed: $0, time: e.firstSeen) }
        }
        let pendingFeeds = try pending.compactMap { try record($0.feedID) }
        isRunning = true
        library.upsert(contentsOf: rows)  // one list change; the library keeps this array (id order)
        rows = []
        library.loadNewest(recent)  // what the store knows from earlier runs; announces nothing
        redeliver(pending, feeds: pendingFeeds)
        for (id, start) in starts {
            switch start {
            case .skip:
                // Counted as done for this pass: its backoff says not yet (see `onceIgnoresBackoff`).
                slots[id]?.polledOnce = true
                unpolled.remove(id)
            case .now:
                poll(id)
            case .at(let nextPoll):
                let delay = configuration.policy.initialDelay(
                    nextPoll: nextPoll?.timeIntervalSince1970, now: now().timeIntervalSince1970,
                    interval: interval(seconds: slots[id].flatMap { $0.intervalSeconds.map(Int.init) }),
                    failures: Int(slots[id]?.failureCount ?? 0))
                if delay <= 0 { poll(id) } else { schedule(id, after: delay) }
            }
        }
        finishOnceIfDone()
    }

    /// The view has written every journal entry up to `sequence` (`LibraryViewModel.JournalEntry`):
    /// their announcements count as output-delivered. Call it on the daemon's thread, also after
    /// `stop()` (a last frame); the store must still be open.
    public func outputDelivered(throughSequence sequence: Int) {
        batchingConfirmations = true
        for (id, delivery) in deliveries.sorted(by: { $0.key < $1.key })
        where delivery.awaitingOutput && delivery.journalSequence <= sequence {
            confirm(id, output: true)
        }
        batchingConfirmations = false
        flushConfirmations()
    }

    /// SIGHUP: re-reads the subscriptions. New feeds are polled at once, removed ones are
    /// dropped (an in-flight fetch is abandoned, nothing is written for it), changed ones take
    /// their new URL, title and interval (a changed interval reschedules the feed as
    /// `setIntervalOverride(_:)` does). Throws `StoreError`.
    public func reload() throws {
        guard isRunning else { return }
        let feeds = try store.feeds()
        let ids = Set(feeds.map(\.id))
        for id in slots.sortedIDs where !ids.contains(id) { drop(id) }
        var added: [FeedRecord] = []
        for record in feeds {
            if slots[record.id] == nil {
                register(record, publish: false)
                added.append(record)
            } else {
                let wasEnabled = slots[record.id]!.enabled
                let oldInterval = slots[record.id]!.intervalSeconds
                slots[record.id]!.take(record, hosts: &hosts)
                trackOnce(record.id)
                library.upsert(snapshot(record, keeping: library.podcast(id: record.id)))
                if wasEnabled && !record.enabled {
                    slots[record.id]!.generation &+= 1
                } else if !wasEnabled && record.enabled {
                    schedule(record.id, after: 0)
                } else if oldInterval != slots[record.id]!.intervalSeconds {
                    rescheduleForNewInterval(record.id)  // `set --interval`
                }
            }
        }
        // New feeds join the list in one change: one by one, each copied the whole list (a web
        // import of 20,000 feeds held the loop for minutes).
        library.upsert(contentsOf: added.map { snapshot($0, keeping: nil) })
        for record in added { startPolling(record, pollNow: true) }
    }

    /// A reload changed `run --interval` (the config file's `interval`): feeds without their own
    /// interval take `seconds` (`nil`: the policy's default) from now on. Each such feed that
    /// is enabled, idle and not backing off is rescheduled as a restart would schedule it
    /// (`PollPolicy.initialDelay`: its stored next poll, but at most one new interval away), so
    /// a shorter interval applies at once and a longer one from the next poll. Loop thread.
    public func setIntervalOverride(_ seconds: Int?) {
        guard configuration.intervalOverride != seconds else { return }
        configuration.intervalOverride = seconds
        guard isRunning, !configuration.once else { return }
        for id in slots.sortedIDs where slots[id]!.intervalSeconds == nil { rescheduleForNewInterval(id) }
    }

    // Feed `id`'s interval changed: an enabled, idle feed that is not backing off gets the next
    // poll a restart would give it (its next poll, at most one interval away). The next poll is
    // the library row's (the stored one, or the one this run scheduled): the slot keeps none.
    private func rescheduleForNewInterval(_ id: Int64) {
        guard isRunning, !configuration.once, let slot = slots[id], slot.enabled, !slot.isFetching,
            !waitingSet.contains(id), let next = library.podcast(id: id)?.nextPoll
        else { return }
        if slot.failureCount > 0 && next > now() { return }  // backing off (failures, Retry-After)
        schedule(
            id,
            after: configuration.policy.initialDelay(
                nextPoll: next.timeIntervalSince1970, now: now().timeIntervalSince1970,
                interval: interval(seconds: slot.intervalSeconds.map(Int.init)), failures: Int(slot.failureCount)))
    }

    /// SIGUSR1: polls every enabled feed now (feeds already being fetched are left alone).
    public func pollAllNow() {
        guard isRunning else { return }
        for id in slots.sortedIDs where slots[id]!.enabled && !slots[id]!.isFetching {
            slots[id]!.generation &+= 1
            poll(id)
        }
    }

    /// Polls feed `id` now (the web dashboard's "poll"): `false` when it is not subscribed or
    /// is disabled; a feed already being fetched is left alone (`true`).
    @discardableResult
    public func pollNow(id: Int64) -> Bool {
        guard isRunning, let slot = slots[id], slot.enabled else { return false }
        guard !slot.isFetching else { return true }
        slots[id]!.generation &+= 1
        poll(id)
        return true
    }

    /// SIGINT/SIGTERM: stops scheduling, abandons in-flight fetches (their results are never
    /// written) and drops hooks still queued. Every update already applied is committed; the
    /// caller then releases the store, which closes the database.
    public func stop() {
        guard isRunning else { return }
        isRunning = false
        waiting.removeAll()
        waitingHead = 0
        waitingSet.removeAll()
        hosts.resetCounters()
        fetching = 0
        slots.updateAll { slot in
            slot.generation &+= 1
            slot.fetchSerial &+= 1
            slot.isFetching = false
            slot.fetchHost = HostTable.none
        }
        deadlines.removeAll()
        disarmDeadlineTimer()
        let tokens = inFlight.values.flatMap { [$0.fetch, $0.parse] }
        inFlight.removeAll()
        for token in tokens { token?.cancel() }
        hooks?.dropQueued()
    }

    // MARK: Polling

    private func register(_ record: FeedRecord, publish: Bool = true) {
        if let old = slots[record.id], old.isFetching { release(old) }
        slots[record.id] = PollSlot(record, hosts: &hosts)
        inFlight[record.id] = nil
        trackOnce(record.id)
        if publish { library.upsert(snapshot(record, keeping: nil)) }
    }

    // Keeps `unpolled` in step with slot `id` (call after its record or `polledOnce` changed).
    private func trackOnce(_ id: Int64) {
        if let slot = slots[id], slot.enabled, !slot.polledOnce {
            unpolled.insert(id)
        } else {
            unpolled.remove(id)
        }
    }

    private func startPolling(_ record: FeedRecord, pollNow: Bool) {
        guard record.enabled else { return }
        if pollNow {
            poll(record.id)
        } else {
            let delay = configuration.policy.initialDelay(
                nextPoll: record.nextPoll?.timeIntervalSince1970, now: now().timeIntervalSince1970,
                interval: interval(of: record), failures: record.failureCount)
            if delay <= 0 { poll(record.id) } else { schedule(record.id, after: delay) }
        }
    }

    private func drop(_ id: Int64) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        if slot.isFetching { release(slot) }
        waitingSet.remove(id)
        unpolled.remove(id)
        let tokens = inFlight.removeValue(forKey: id)
        tokens?.fetch?.cancel()
        tokens?.parse?.cancel()
        library.remove(id: id)
        if slot.isFetching { startHostWaiting(slot.fetchHost) }
        startWaiting()
    }

    private func schedule(_ id: Int64, after delay: Double) {
        guard slots[id] != nil else { return }
        let seconds = PollPolicy.clampedDelay(delay)  // never a timer for 292 years
        slots[id]!.generation &+= 1
        let generation = slots[id]!.generation
        library.update(id: id) { $0.nextPoll = self.now().addingTimeInterval(seconds) }
        queueDeadline(scheduler.now.advanced(by: .seconds(seconds)), id: id, stamp: generation, kind: .poll)
    }

    // MARK: Deadlines

    /// Scheduler timers pending for the daemon's polls and parse budgets: 0 or 1 (for tests).
    var deadlineTimerCount: Int { deadlineTimer == nil ? 0 : 1 }

    /// Entries in the deadline heap, live and stale (for tests).
    var deadlineEntryCount: Int { deadlines.count }

    /// Seconds from the scheduler's now to each feed's scheduled poll, sorted (for tests).
    var pendingPollDelays: [Double] {
        var copy = deadlines
        var delays: [Double] = []
        let end = MonotonicInstant(nanoseconds: .max)
        while let entry = copy.popDue(at: end) {
            guard entry.kind == .poll && isLive(entry) else { continue }
            delays.append(Double(scheduler.now.distance(to: entry.deadline).nanoseconds) / 1e9)
        }
        return delays
    }

    private func queueDeadline(_ deadline: MonotonicInstant, id: Int64, stamp: UInt32, kind: PollDeadlines.Kind) {
        // Stale entries (a feed rescheduled, a parse done) leave only when due: once they could
        // outnumber the live ones (at most one poll per slot and one budget per poll in
        // flight), rebuild without them, so the heap stays O(feeds).
        if deadlines.count >= 64 && deadlines.count >= 2 * (slots.count + inFlight.count) {
            deadlines.compact { isLive($0) }
        }
        deadlines.push(deadline, id: id, stamp: stamp, kind: kind)
        armDeadlineTimer()
    }

    private func isLive(_ entry: PollDeadlines.Entry) -> Bool {
        guard let slot = slots[entry.id] else { return false }
        switch entry.kind {
        case .poll: return slot.generation == entry.stamp
        case .parseBudget:
            return slot.isFetching && slot.fetchSerial == entry.stamp && inFlight[entry.id]?.budget != nil
        }
    }

    // Arms the one timer for the earliest deadline, unless it is armed for that or earlier.
    private func armDeadlineTimer() {
        guard isRunning, let earliest = deadlines.earliest else {
            disarmDeadlineTimer()
            return
        }
        if let armed = armedDeadline, armed <= earliest { return }
        deadlineTimer?.cancel()
        armedDeadline = earliest
        // Repeating only because that form is cancellable: it is cancelled when it fires.
        deadlineTimer = scheduler.schedule(after: earliest, interval: .seconds(3_600)) { [weak self] in
            self?.deadlinesDue()
        }
    }

    private func disarmDeadlineTimer() {
        deadlineTimer?.cancel()
        deadlineTimer = nil
        armedDeadline = nil
    }

    // The timer fired: runs every due entry in (deadline, order queued) order, including those
    // queued meanwhile for now, then arms for the next.
    private func deadlinesDue() {
        disarmDeadlineTimer()
        let now = scheduler.now
        while isRunning, let entry = deadlines.popDue(at: now) {
            switch entry.kind {
            case .poll:
                guard slots[entry.id]?.generation == entry.stamp else { continue }
                poll(entry.id)
            case .parseBudget:
                parseBudgetRanOut(entry.id, serial: entry.stamp)
            }
        }
        armDeadlineTimer()
    }

    // A parse still running at its deadline: stopped (the parser checks at its next SAX event,
    // so the worker is free at once), and the poll fails; its late result is dropped.
    private func parseBudgetRanOut(_ id: Int64, serial: UInt32) {
        guard let slot = slots[id], slot.isFetching, slot.fetchSerial == serial, let budget = inFlight[id]?.budget
        else { return }
        budget.cancellation.cancel()
        finish(
            id, serial: serial, .success(budget.response),
            parsed: .failure(DocumentRefused(.parseBudget(seconds: budget.seconds))))
    }

    private func poll(_ id: Int64) {
        guard isRunning, let slot = slots[id], slot.enabled, !slot.isFetching else { return }
        let host = slot.host
        if host != HostTable.none && hosts.inFlight[Int(host)] >= configuration.maxFetchesPerHost {
            if waitingSet.insert(id).inserted { hosts.waiting[Int(host)].append(id) }
            library.update(id: id) { $0.status = .waiting }
            return
        }
        if fetching >= configuration.maxConcurrentFetches {
            if waitingSet.insert(id).inserted { waiting.append(id) }
            library.update(id: id) { $0.status = .waiting }
            return
        }
        slots.update(id) { slot in
            slot.fetchSerial &+= 1
            slot.isFetching = true
            slot.fetchHost = host
        }
        fetching += 1
        if host != HostTable.none { hosts.inFlight[Int(host)] += 1 }
        let serial = slots[id]!.fetchSerial
        library.update(id: id) { $0.status = .polling }
        let request = FetchRequest(
            url: slot.url, etag: slot.etag, lastModified: slot.lastModified,
            limits: configuration.limits)
        let token = fetcher.fetch(request) { [weak self] result in
            self?.complete(id, serial: serial, result)
        }
        // The completion may already have run (a synchronous fetcher): keep the token only if
        // this fetch is still the one in flight.
        if slots[id]?.isFetching == true, slots[id]?.fetchSerial == serial {
            inFlight[id, default: InFlight()].fetch = token
        }
    }

    // A poll ended (or was dropped): its host's next waiting feed first, then the global queue.
    private func release(_ slot: PollSlot) {
        fetching -= 1
        guard slot.fetchHost != HostTable.none else { return }
        hosts.inFlight[Int(slot.fetchHost)] = max(0, hosts.inFlight[Int(slot.fetchHost)] - 1)
    }

    private func startHostWaiting(_ host: Int32) {
        guard host != HostTable.none else { return }
        // In place: a copy of the queue taken out of a dictionary made every pop O(N).
        while isRunning, hosts.inFlight[Int(host)] < configuration.maxFetchesPerHost,
            let id = hosts.waiting[Int(host)].popFirst()
        {
            guard waitingSet.remove(id) != nil else { continue }  // dropped while queued
            poll(id)  // over the global limit it moves to the global queue
        }
    }

    /// The per-host key of a feed URL: lower-cased host and port (`nil` for a local file).
    static func hostKey(_ url: String) -> String? { HostTable.key(url) }

    private func startWaiting() {
        while isRunning, waitingHead < waiting.count, fetching < configuration.maxConcurrentFetches {
            let id = waiting[waitingHead]
            waitingHead += 1
            // Compact now and then, so the consumed prefix does not grow without bound.
            if waitingHead >= 1024 && waitingHead * 2 >= waiting.count {
                waiting.removeFirst(waitingHead)
                waitingHead = 0
            }
            guard waitingSet.remove(id) != nil else { continue }  // dropped while queued
            poll(id)
        }
    }

    // A fetch ended: a body to parse goes to the off-loop executor (the slot stays busy until
    // its result is back, or its budget ran out); anything else is finished at once.
    private func complete(_ id: Int64, serial: UInt32, _ result: FetchResult) {
        guard isRunning, let slot = slots[id], slot.isFetching, slot.fetchSerial == serial else { return }
        guard case .success(let response) = result, !response.isNotModified else {
            finish(id, serial: serial, result, parsed: nil)
            return
        }
        let parse = self.parse
        let cap = max(1, configuration.maxEpisodesPerPoll)
        let budget = max(0.001, configuration.parseBudget)
        // The budget keeps the response without its body: the poll fails with it.
        var bodiless = response
        bodiless.body = Data()
        bodiless.headers = [:]
        // Cancelled when the budget runs out: the parser stops at its next SAX event, so the
        // worker is free at once instead of finishing a result that would be dropped.
        let cancellation = ParseCancellation()
        let token = offLoop.submit(
            {
                Result {
                    try ParseCancellation.$current.withValue(cancellation) {
                        PodcastDaemon.capped(try parse(response), to: cap).sanitizingShowNotes()
                    }
                }
            },
            started: { [weak self] in
                guard let self, self.isRunning, let slot = self.slots[id], slot.isFetching, slot.fetchSerial == serial
                else { return }
                self.inFlight[id, default: InFlight()].budget = ParseBudget(
                    cancellation: cancellation, response: bodiless, seconds: budget)
                self.queueDeadline(
                    self.scheduler.now.advanced(by: .seconds(budget)), id: id, stamp: serial, kind: .parseBudget)
            },
            completion: { [weak self] parsed in
                self?.finish(id, serial: serial, result, parsed: parsed)
            })
        // An inline executor has finished already: keep the token only while the parse runs.
        if slots[id]?.isFetching == true, slots[id]?.fetchSerial == serial {
            inFlight[id, default: InFlight()].parse = token
        }
    }

    // Applies a finished poll: `parsed` is the parse of a 2xx body (nil for a 304 or a failure).
    private func finish(_ id: Int64, serial: UInt32, _ result: FetchResult, parsed: Result<ParsedFeed, Error>?) {
        guard isRunning, let slot = slots[id], slot.isFetching, slot.fetchSerial == serial else { return }
        release(slot)
        slots.update(id) { slot in
            slot.isFetching = false
            slot.fetchHost = HostTable.none
        }
        inFlight[id] = nil
        let checkedAt = now()

        var outcome: FeedUpdate.Outcome
        var pollOutcome: PollPolicy.Outcome
        var redirect: PermanentRedirect?
        switch result {
        case .success(let response):
            redirect = response.permanentRedirect
            if response.isNotModified && slot.etag == nil && slot.lastModified == nil {
                // Nothing was asked conditionally: a 304 cannot mean "unchanged", and taking it
                // as a sync would spend the first-sync limit without storing anything.
                redirect = nil
                outcome = .failed(
                    FeedFailure(httpStatus: 304, message: "HTTP 304 Not Modified to a request without validators"))
                pollOutcome = .httpError(status: 304, retryAfter: nil)
            } else if response.isNotModified {
                outcome = .notModified
                pollOutcome = .notModified
            } else {
                do {
                    guard let parsed else { throw DocumentRefused(.parseBudget(seconds: 0)) }
                    let feed = try parsed.get()
                    outcome = .fetched(feed, etag: response.etag, lastModified: response.lastModified)
                    pollOutcome = .fetched
                } catch {
                    redirect = nil  // the new URL did not give a feed: do not move there
                    // The parser's own errors already say what is wrong ("not a feed: the root
                    // element is <html>…"); only other errors get the prefix.
                    let message =
                        error is FeedParseError || error is DocumentRefused || error is TruncatedDocument
                        ? "\(error)" : "not a feed: \(error)"
                    outcome = .failed(FeedFailure(httpStatus: nil, message: message))
                    pollOutcome = .unparseable
                }
            }
        case .failure(let error):
            // A move is committed only once the new URL answered: a 301 loop or a chain longer
            // than the redirect limit used to move the subscription on every poll.
            redirect = nil
            outcome = .failed(FeedFailure(httpStatus: error.status, message: error.message))
            if case .httpStatus(let status) = error.kind {
                // The server's own "come back later" (RFC 9110 §10.2.3) only means that on these.
                let retryAfter = status == 429 || status == 503 ? error.retryAfter(now: checkedAt) : nil
                pollOutcome = .httpError(status: status, retryAfter: retryAfter)
            } else {
                pollOutcome = .networkError
            }
        }

        var rng = ClosureRandom(source: random)
        let decision = configuration.policy.decide(
            after: pollOutcome, previousFailures: Int(slot.failureCount),
            interval: interval(seconds: slot.intervalSeconds.map(Int.init)), using: &rng)
        let nextPoll = decision.delay.map { checkedAt.addingTimeInterval($0) }
        let update = FeedUpdate(
            feedID: id, outcome: outcome, permanentRedirect: redirect,
            checkedAt: checkedAt, nextPoll: nextPoll)

        let applied: FeedUpdateResult
        do {
            applied = try store.apply(update: update)
        } catch {
            stop()
            onFatalError?(error)
            return
        }
        completedPolls += 1
        onCommitted?(applied)
        slots.update(id) { slot in
            slot.take(applied.feed, hosts: &hosts)
            slot.polledOnce = true
        }
        unpolled.remove(id)
        // Warnings: a malformed document (stored what was recovered, nothing deleted, validators
        // dropped so the next poll fetches it whole), with the first XML error rather than an
        // encoding note; and the store's own (duplicate guids). Each is reported (stderr and a
        // feed_warning event) when it appears, not again on every poll while it lasts.
        var warnings: [(key: String, message: String)] = []
        if case .fetched(let parsed, _, _) = outcome, !parsed.isWellFormed {
            let cause = parsed.warnings.first { $0.hasPrefix("XML error") } ?? parsed.warnings.first
            // What the store keeps of a degraded parse: distinct items it can identify (a guid
            // or an enclosure); items known only by link or title hash are skipped.
            let kept = Set(parsed.episodes.map(EpisodeIdentity.init).filter(\.isStrong).map(\.key)).count
            let recovered = parsed.episodes.count
            warnings.append(
                (
                    "malformed: " + (cause ?? ""),
                    "the feed is not well-formed; kept \(kept == recovered ? "the \(kept)" : "\(kept) of the \(recovered)") \(recovered == 1 ? "item" : "items") recovered, deleted nothing"
                        + (cause.map { ": \($0)" } ?? "")
                ))
        }
        // The parser drops repeated guids itself (first kept), so the store never sees them:
        // its notes are the only trace of a duplicate guid.
        if case .fetched(let parsed, _, _) = outcome {
            warnings += parsed.warnings.filter {
                $0.hasPrefix("duplicate guid") || $0.hasPrefix(PodcastDaemon.capWarningPrefix)
            }.map { ($0, $0) }
        }
        warnings += applied.warnings.map { ($0, $0) }
        let previous = reportedWarnings[id] ?? []
        // A 304 or a failure changes nothing.
        // Only feeds with warnings get an entry (an empty set per feed cost a slot of the table).
        if case .fetched = outcome { reportedWarnings[id] = warnings.isEmpty ? nil : Set(warnings.map(\.key)) }
        warnings.removeAll { previous.contains($0.key) }
        for warning in warnings { onWarning?("\(applied.feed.label): \(warning.message)") }

        // The library first, so a view updated in this iteration sees the same state as the events.
        var view = snapshot(applied.feed, keeping: library.podcast(id: id))
        view.url = slots[id]!.url  // one copy of the URL for the slot and the row
        view.lastCheck = checkedAt
        view.nextPoll = nextPoll
        view.status = Podcast.Status(decision.health)
        if case .failed(let failure) = outcome { view.lastError = failure.message } else { view.lastError = nil }
        library.upsert(view)

        let title = applied.feed.knownTitle  // null in JSON when unknown, never the URL
        var events: [FeedEvent] = applied.moves.map {
            .feedMoved(FeedMoveReport(time: checkedAt, from: $0.from, to: $0.to, reason: $0.reason.rawValue))
        }
        switch outcome {
        case .failed(let failure):
            events.append(
                .feedError(
                    FeedErrorReport(
                        time: checkedAt, feedURL: applied.feed.url, podcastTitle: title, httpStatus: failure.httpStatus,
                        message: failure.message, health: decision.health,
                        consecutiveFailures: decision.consecutiveFailures,
                        nextPoll: nextPoll)))
        case .notModified, .fetched:
            events += warnings.map {
                .feedWarning(
                    FeedWarningReport(
                        time: checkedAt, feedURL: applied.feed.url, podcastTitle: title, message: $0.message))
            }
            events.append(
                .feedUpdated(
                    FeedUpdateReport(
                        time: checkedAt, feedURL: applied.feed.url, podcastTitle: title,
                        newEpisodes: applied.announced.count,
                        notModified: { if case .notModified = outcome { return true } else { return false } }(),
                        nextPoll: nextPoll)))
        }
        // Announced newest first by the store; report them oldest first, in publication order.
        let announcements = applied.announced.reversed().map {
            (episodeID: $0.id, announcement: PodcastDaemon.announcement($0, feed: applied.feed, time: checkedAt))
        }
        for event in events { library.record(event, feedID: id) }
        let sequences = announcements.map { library.record(.newEpisode($0.announcement), feedID: id) }
        for event in events { onEvent?(event) }
        batchingConfirmations = true
        for (a, sequence) in zip(announcements, sequences) {
            deliver(a.announcement, episodeID: a.episodeID, journalSequence: sequence)
        }
        batchingConfirmations = false
        flushConfirmations()

        if configuration.once {
            if case .failed = outcome { onceFailures.append(id) }
            finishOnceIfDone()
        } else if let delay = decision.delay {
            schedule(id, after: delay)
        }
        startHostWaiting(slot.fetchHost)
        startWaiting()
    }

    static var capWarningPrefix: String { "the feed lists " }

    /// `feed` with at most `cap` episodes: the newest by publication date (undated ones count
    /// as oldest; among equals, earlier in the document first), kept in document order, and a
    /// warning saying how many were dropped. Any thread.
    static func capped(_ feed: ParsedFeed, to cap: Int) -> ParsedFeed {
        guard feed.episodes.count > cap else { return feed }
        let ranked = feed.episodes.indices.sorted { a, b in
            let da = feed.episodes[a].published ?? .distantPast
            let db = feed.episodes[b].published ?? .distantPast
            return da != db ? da > db : a < b
        }
        let kept = Set(ranked.prefix(cap))
        var result = feed
        result.episodes = feed.episodes.indices.filter(kept.contains).map { feed.episodes[$0] }
        result.warnings.append(
            "\(capWarningPrefix)\(feed.episodes.count) items; kept the newest \(cap) (the per-poll cap)")
        return result
    }

    // MARK: Delivery

    private static func announcement(_ e: StoredEpisode, feed: FeedRecord, time: Date) -> EpisodeAnnouncement {
        EpisodeAnnouncement(stored: e, feed: feed, time: time)
    }

    // Issues one announcement to every output, and tracks it until all of them have it.
    private func deliver(_ announcement: EpisodeAnnouncement, episodeID: Int64, journalSequence: Int) {
        deliveries[episodeID] = Delivery(
            journalSequence: journalSequence, awaitingOutput: configuration.awaitsOutputConfirmation,
            awaitingHook: hooks != nil)
        onEvent?(.newEpisode(announcement))
        onAnnounced?(announcement, episodeID)
        if let hooks {
            hooks.run(for: announcement) { [weak self] in self?.confirm(episodeID, hook: true) }
        }
        confirm(episodeID)
    }

    // Announcements a killed run committed but never confirmed: issued again, before any poll.
    private func redeliver(_ pending: [StoredEpisode], feeds: [FeedRecord]) {
        let byID = Dictionary(feeds.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        batchingConfirmations = true
        for episode in pending {
            guard let feed = byID[episode.feedID] else { continue }
            let a = PodcastDaemon.announcement(episode, feed: feed, time: episode.firstSeen)
            let sequence = library.record(.newEpisode(a), feedID: feed.id)
            deliver(a, episodeID: episode.id, journalSequence: sequence)
        }
        batchingConfirmations = false
        flushConfirmations()
    }

    private func confirm(_ id: Int64, output: Bool = false, hook: Bool = false) {
        guard var delivery = deliveries[id] else { return }
        if output { delivery.awaitingOutput = false }
        if hook { delivery.awaitingHook = false }
        if delivery.awaitingOutput || delivery.awaitingHook {
            deliveries[id] = delivery
            return
        }
        deliveries[id] = nil
        confirmed.append(id)
        if !batchingConfirmations { flushConfirmations() }
    }

    // One transaction for the confirmations gathered. A failure is not fatal: the announcements
    // stay pending and are delivered again on the next start.
    private func flushConfirmations() {
        guard !confirmed.isEmpty else { return }
        let ids = confirmed
        confirmed = []
        do {
            try store.markAnnouncementsDelivered(ids)
        } catch {
            onWarning?("cannot record \(ids.count) announcements as delivered (they will be repeated): \(error)")
        }
    }

    private func finishOnceIfDone() {
        guard configuration.once, isRunning, !onceReported else { return }
        guard unpolled.isEmpty else { return }
        onceReported = true
        // Nothing is polled again and no parse is in flight: no timer is left behind (stale
        // parse budgets would otherwise keep it armed).
        deadlines.removeAll()
        disarmDeadlineTimer()
        onFinished?(onceFailures.sorted())
    }

    // A feed after failures whose next poll (backoff or Retry-After) has not come yet.
    private func isBackingOff(_ record: FeedRecord) -> Bool {
        guard record.failureCount > 0, let next = record.nextPoll else { return false }
        return next > now()
    }

    // Seconds; nil for the policy's default.
    private func interval(of record: FeedRecord) -> Double? {
        interval(seconds: record.intervalSeconds)
    }

    private func interval(seconds: Int?) -> Double? {
        (seconds ?? configuration.intervalOverride).map(Double.init)
    }

    private func snapshot(_ record: FeedRecord, keeping old: Podcast?) -> Podcast {
        // Without a snapshot of this run: the store's status (what `list` shows), or `waiting`
        // for a feed never polled, so a restart does not hide a failing feed.
        var status: Podcast.Status = old?.status ?? (record.lastCheck == nil ? .waiting : Podcast.Status(record.health))
        if !record.enabled { status = .disabled }
        var title = record.title ?? record.feedTitle
        if let old, old.title == title { title = old.title }  // keep the stored copy
        var podcast = Podcast(
            id: record.id, url: record.url, title: title, status: status,
            lastCheck: record.lastCheck, nextPoll: old?.nextPoll ?? record.nextPoll, newCount: old?.newCount ?? 0,
            lastError: record.lastError)
        podcast.hookError = record.hookError
        podcast.hookRetry = old?.hookRetry
        podcast.hookRetriesOwed = old?.hookRetriesOwed ?? 0
        return podcast
    }

    /// Shows the hook attempts feed `id` still owes (`FeedStore.pendingHookRetries(feedID:)`:
    /// the soonest and how many) in its library row, after one was recorded or forgotten, so the
    /// live table and the dashboard show what `list` shows. One indexed query; a feed removed
    /// meanwhile, or a store error, changes nothing. Loop thread.
    public func noteHookRetries(feedID id: Int64) {
        guard slots[id] != nil, var podcast = library.podcast(id: id),
            let owed = try? store.pendingHookRetries(feedID: id)
        else { return }
        podcast.hookRetry = owed.first
        podcast.hookRetriesOwed = owed.count
        library.upsert(podcast)  // an equal row notifies nobody
    }

    /// Records the outcome of feed `id`'s hook (after its retries; `nil` for success) in the
    /// store and the library, so `list` and the live table show a failing hook. A feed
    /// removed meanwhile is ignored. Loop thread.
    public func noteHookOutcome(feedID id: Int64, error: String?) {
        try? store.setHookError(error, id: id)
        guard slots[id] != nil, var podcast = library.podcast(id: id), podcast.hookError != error else { return }
        podcast.hookError = error
        library.upsert(podcast)
    }
}

// Adapts a closure to `RandomNumberGenerator`, so the jitter source can be injected.
private struct ClosureRandom: RandomNumberGenerator {
    let source: () -> UInt64
    mutating func next() -> UInt64 { source() }
}
