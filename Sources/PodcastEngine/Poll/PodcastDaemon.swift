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
    public internal(set) var completedPolls = 0
    /// Announcements issued but not yet confirmed delivered (waiting for the view or the hook).
    public var undeliveredCount: Int { deliveries.count }

    let store: any FeedStoring
    let fetcher: FeedFetching
    let parse: Parse
    let offLoop: OffLoopExecutor
    let scheduler: S
    let now: () -> Date
    var random: () -> UInt64

    var slots = SlotTable()
    // The tokens of the polls in flight (at most `maxConcurrentFetches`), not one per feed.
    struct InFlight {
        var fetch: Cancellable?
        var parse: Cancellable?  // the parse of the fetched body, on `offLoop`
        var budget: ParseBudget?  // set once a worker started the parse
    }
    // What a parse's budget needs when it runs out: the parse to stop, and the response it was
    // of, without its body (the poll fails with it).
    struct ParseBudget {
        var cancellation: ParseCancellation
        var response: FetchResponse
        var seconds: Double
    }
    // Every feed's next poll and every parse's budget, behind one scheduler timer.
    var deadlines = PollDeadlines()
    var deadlineTimer: Cancellable?
    var armedDeadline: MonotonicInstant?
    var inFlight: [Int64: InFlight] = [:]
    // What `start()` does with a feed once every slot is made.
    private enum Start {
        case now
        case at(Date?)
        case skip
    }
    // Counters kept in step with the slots, so a poll and a completion cost O(1) rather than a
    // scan of every feed (O(N²) per cycle over thousands of feeds).
    var fetching = 0  // slots with isFetching
    // Per host: polls in flight, and due feeds over the host's limit, in order (entries also in
    // `waitingSet`).
    var hosts = HostTable()
    var unpolled = Set<Int64>()  // enabled slots not polled once yet (`once` mode's end)
    // Due but over the concurrency limit, in order: a queue read from `waitingHead`, with
    // `waitingSet` for membership. An id dropped while queued leaves a stale entry, skipped.
    var waiting: [Int64] = []
    var waitingHead = 0
    var waitingSet = Set<Int64>()
    var onceFailures: [Int64] = []
    var reportedWarnings: [Int64: Set<String>] = [:]  // per feed: warnings already reported
    var onceReported = false

    // Announcements issued and not yet delivered everywhere (the delivery ledger).
    var deliveries = DeliveryLedger()

    /// A daemon over `store`, fetching with `fetcher`, parsing with `parse` on `offLoop` (pass a
    /// `WorkerPool` to keep parsing off the loop thread; the default `InlineExecutor` parses in
    /// place, for virtual-clock tests), timing with `scheduler`. `now` is the wall clock (stored
    /// dates); `random` feeds the jitter.
    public init(
        store: any FeedStoring, fetcher: FeedFetching, parse: @escaping Parse,
        offLoop: OffLoopExecutor = InlineExecutor(),
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
    func rescheduleForNewInterval(_ id: Int64) {
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
