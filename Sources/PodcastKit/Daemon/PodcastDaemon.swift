import Foundation
import LoopScheduler

/// The poller: schedules each subscribed feed's polls on a scheduler, fetches, parses, applies
/// the result to the store in one transaction, reports events, runs hooks and keeps the
/// `LibraryViewModel` current.
///
/// - Conditional GET: the stored `ETag`/`Last-Modified` are sent; the store drops them after a
///   failure, so the refresh after a failed one is unconditional.
/// - Moves: a 301/308 chain and `itunes:new-feed-url` move the stored URL (the store refuses a
///   move onto another subscription, with a warning).
/// - Scheduling follows `PollPolicy` (interval, jitter, backoff, 404 failing, 410 disabled);
///   the next poll time is stored with each update, so a restart resumes the schedule.
/// - At most `Configuration.maxConcurrentFetches` fetches run at once; due feeds wait in order.
/// - `--once`: every enabled feed is polled once, then `onFinished` reports the failures.
///
/// Threading: everything (calls, scheduler actions, fetch completions) on the scheduler's
/// thread, the main loop in the CLI. Timers are one-shot `schedule(after:)` calls made stale by a
/// per-feed generation number, since one-shot scheduling is not cancellable.
public final class PodcastDaemon<S: Scheduler> where S.SchedulerTimeType == MonotonicInstant {
    /// Turns a 2xx response into a feed; throws when the body is not a feed.
    public typealias Parse = (FetchResponse) throws -> ParsedFeed

    /// How the daemon behaves.
    public struct Configuration: Sendable {
        /// Interval, jitter and backoff.
        public var policy: PollPolicy
        /// Seconds between polls for feeds left at the store's default interval (`run
        /// --interval`); `nil` keeps the stored interval.
        public var intervalOverride: Int?
        /// Poll each feed once, then finish (`run --once`).
        public var once: Bool
        /// Limits given to every fetch.
        public var limits: FetchLimits
        /// Fetches in flight at most.
        public var maxConcurrentFetches: Int

        /// A configuration; defaults are those of `podcast-watch run`.
        public init(
            policy: PollPolicy = PollPolicy(), intervalOverride: Int? = nil, once: Bool = false,
            limits: FetchLimits = FetchLimits(), maxConcurrentFetches: Int = 8
        ) {
            self.policy = policy
            self.intervalOverride = intervalOverride
            self.once = once
            self.limits = limits
            self.maxConcurrentFetches = max(1, maxConcurrentFetches)
        }
    }

    /// The view models the views observe.
    public let library: LibraryViewModel
    /// The configuration given at creation.
    public let configuration: Configuration
    /// Called for every event, after the store has committed it and after `library` has it.
    public var onEvent: ((FeedEvent) -> Void)?
    /// Called with warnings worth a line on stderr (store warnings, refused moves).
    public var onWarning: ((String) -> Void)?
    /// Called once when the daemon cannot go on (a store error), with the error; it has stopped.
    public var onFatalError: ((Error) -> Void)?
    /// In `once` mode: called once when every feed has been polled, with the ids of the feeds
    /// whose poll failed (empty: all succeeded).
    public var onFinished: ((_ failedFeedIDs: [Int64]) -> Void)?
    /// Runs the `--hook` for each new episode, if set.
    public var hooks: HookRunner?

    /// Whether `start()` was called and `stop()` was not.
    public private(set) var isRunning = false
    /// Fetches in flight now.
    public var inFlightCount: Int { slots.values.filter(\.isFetching).count }
    /// Polls completed since start (each applied to the store).
    public private(set) var completedPolls = 0

    private let store: FeedStore
    private let fetcher: FeedFetching
    private let parse: Parse
    private let scheduler: S
    private let now: () -> Date
    private var random: () -> UInt64

    private struct Slot {
        var record: FeedRecord
        var generation = 0  // bumps make pending timers stale
        var fetchSerial = 0
        var fetch: Cancellable?
        var isFetching = false
        var polledOnce = false
    }
    private var slots: [Int64: Slot] = [:]
    private var waiting: [Int64] = []  // due but over the concurrency limit, in order
    private var onceFailures: [Int64] = []
    private var onceReported = false

    /// A daemon over `store`, fetching with `fetcher`, parsing with `parse`, timing with
    /// `scheduler`. `now` is the wall clock (stored dates); `random` feeds the jitter.
    public init(
        store: FeedStore, fetcher: FeedFetching, parse: @escaping Parse, scheduler: S,
        configuration: Configuration = Configuration(), library: LibraryViewModel = LibraryViewModel(),
        now: @escaping () -> Date = Date.init, random: @escaping () -> UInt64 = { UInt64.random(in: .min ... .max) }
    ) {
        self.store = store
        self.fetcher = fetcher
        self.parse = parse
        self.scheduler = scheduler
        self.configuration = configuration
        self.library = library
        self.now = now
        self.random = random
    }

    // MARK: Life cycle

    /// Loads the subscriptions and schedules their polls: overdue, never-polled (and in `once`
    /// mode all) feeds at once, the others at their stored next poll time. Disabled feeds are
    /// shown but not polled. Throws `StoreError`.
    public func start() throws {
        guard !isRunning else { return }
        isRunning = true
        let feeds = try store.feeds()
        for record in feeds { adopt(record, pollNow: configuration.once) }
        finishOnceIfDone()
    }

    /// SIGHUP: re-reads the subscriptions. New feeds are polled at once, removed ones are
    /// dropped (an in-flight fetch is abandoned, nothing is written for it), changed ones take
    /// their new URL, title and interval. Throws `StoreError`.
    public func reload() throws {
        guard isRunning else { return }
        let feeds = try store.feeds()
        let ids = Set(feeds.map(\.id))
        for id in slots.keys.sorted() where !ids.contains(id) { drop(id) }
        for record in feeds {
            if slots[record.id] == nil {
                adopt(record, pollNow: true)
            } else {
                let wasEnabled = slots[record.id]!.record.enabled
                slots[record.id]!.record = record
                library.upsert(snapshot(record, keeping: library.podcast(id: record.id)))
                if wasEnabled && !record.enabled {
                    slots[record.id]!.generation += 1
                } else if !wasEnabled && record.enabled {
                    schedule(record.id, after: 0)
                }
            }
        }
    }

    /// SIGUSR1: polls every enabled feed now (feeds already being fetched are left alone).
    public func pollAllNow() {
        guard isRunning else { return }
        for id in slots.keys.sorted() where slots[id]!.record.enabled && !slots[id]!.isFetching {
            slots[id]!.generation += 1
            poll(id)
        }
    }

    /// SIGINT/SIGTERM: stops scheduling, abandons in-flight fetches (their results are never
    /// written) and drops hooks still queued. Every update already applied is committed; the
    /// caller then releases the store, which closes the database.
    public func stop() {
        guard isRunning else { return }
        isRunning = false
        waiting.removeAll()
        for id in slots.keys {
            slots[id]!.generation += 1
            slots[id]!.fetchSerial += 1
            slots[id]!.isFetching = false
            let token = slots[id]!.fetch
            slots[id]!.fetch = nil
            token?.cancel()
        }
        hooks?.dropQueued()
    }

    // MARK: Polling

    private func adopt(_ record: FeedRecord, pollNow: Bool) {
        slots[record.id] = Slot(record: record)
        library.upsert(snapshot(record, keeping: nil))
        guard record.enabled else { return }
        if pollNow {
            poll(record.id)
        } else {
            let delay = configuration.policy.initialDelay(
                nextPoll: record.nextPoll?.timeIntervalSince1970, now: now().timeIntervalSince1970,
                interval: Double(interval(of: record)))
            if delay <= 0 { poll(record.id) } else { schedule(record.id, after: delay) }
        }
    }

    private func drop(_ id: Int64) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        waiting.removeAll { $0 == id }
        slot.fetch?.cancel()
        library.remove(id: id)
        startWaiting()
    }

    private func schedule(_ id: Int64, after seconds: Double) {
        guard slots[id] != nil else { return }
        slots[id]!.generation += 1
        let generation = slots[id]!.generation
        library.update(id: id) { $0.nextPoll = self.now().addingTimeInterval(seconds) }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(seconds))) { [weak self] in
            guard let self, self.isRunning, self.slots[id]?.generation == generation else { return }
            self.poll(id)
        }
    }

    private func poll(_ id: Int64) {
        guard isRunning, let slot = slots[id], slot.record.enabled, !slot.isFetching else { return }
        if slots.values.filter(\.isFetching).count >= configuration.maxConcurrentFetches {
            if !waiting.contains(id) { waiting.append(id) }
            library.update(id: id) { $0.status = .waiting }
            return
        }
        slots[id]!.fetchSerial += 1
        slots[id]!.isFetching = true
        let serial = slots[id]!.fetchSerial
        library.update(id: id) { $0.status = .polling }
        let request = FetchRequest(
            url: slot.record.url, etag: slot.record.etag, lastModified: slot.record.lastModified,
            limits: configuration.limits)
        let token = fetcher.fetch(request) { [weak self] result in
            self?.complete(id, serial: serial, result)
        }
        // The completion may already have run (a synchronous fetcher): keep the token only if
        // this fetch is still the one in flight.
        if slots[id]?.isFetching == true, slots[id]?.fetchSerial == serial {
            slots[id]!.fetch = token
        }
    }

    private func startWaiting() {
        while isRunning, !waiting.isEmpty,
            slots.values.filter(\.isFetching).count < configuration.maxConcurrentFetches
        {
            poll(waiting.removeFirst())
        }
    }

    private func complete(_ id: Int64, serial: Int, _ result: FetchResult) {
        guard isRunning, let slot = slots[id], slot.isFetching, slot.fetchSerial == serial else { return }
        slots[id]!.isFetching = false
        slots[id]!.fetch = nil
        let checkedAt = now()

        var outcome: FeedUpdate.Outcome
        var pollOutcome: PollPolicy.Outcome
        var redirect: PermanentRedirect?
        switch result {
        case .success(let response):
            redirect = response.permanentRedirect
            if response.isNotModified {
                outcome = .notModified
                pollOutcome = .notModified
            } else {
                do {
                    let parsed = try parse(response)
                    outcome = .fetched(parsed, etag: response.etag, lastModified: response.lastModified)
                    pollOutcome = .fetched
                } catch {
                    outcome = .failed(FeedFailure(httpStatus: nil, message: "not a feed: \(error)"))
                    pollOutcome = .unparseable
                }
            }
        case .failure(let error):
            redirect = error.permanentRedirect
            outcome = .failed(FeedFailure(httpStatus: error.status, message: error.message))
            if case .httpStatus(let status) = error.kind {
                pollOutcome = .httpError(status: status, retryAfter: nil)
            } else {
                pollOutcome = .networkError
            }
        }

        var rng = ClosureRandom(source: random)
        let decision = configuration.policy.decide(
            after: pollOutcome, previousFailures: slot.record.failureCount,
            interval: Double(interval(of: slot.record)), using: &rng)
        let nextPoll = decision.delay.map { checkedAt.addingTimeInterval($0) }
        let update = FeedUpdate(
            feedID: id, outcome: outcome, permanentRedirect: redirect.map { ($0.url, $0.status) },
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
        slots[id]!.record = applied.feed
        slots[id]!.polledOnce = true
        for warning in applied.warnings { onWarning?("\(applied.feed.displayTitle) <\(applied.feed.url)>: \(warning)") }

        // The library first, so a view updated in this iteration sees the same state as the events.
        var view = snapshot(applied.feed, keeping: library.podcast(id: id))
        view.lastCheck = checkedAt
        view.nextPoll = nextPoll
        switch decision.health {
        case .ok: view.status = .ok
        case .backingOff: view.status = .backingOff
        case .failing: view.status = .failing
        case .disabled: view.status = .disabled
        }
        if case .failed(let failure) = outcome { view.lastError = failure.message } else { view.lastError = nil }
        library.upsert(view)

        let title = applied.feed.displayTitle
        var events: [FeedEvent] = applied.moves.map {
            .feedMoved(FeedMoveReport(time: checkedAt, from: $0.from, to: $0.to, reason: $0.reason.rawValue))
        }
        switch outcome {
        case .failed(let failure):
            events.append(.feedError(FeedErrorReport(
                time: checkedAt, feedURL: applied.feed.url, podcastTitle: title, httpStatus: failure.httpStatus,
                message: failure.message, health: decision.health, consecutiveFailures: decision.consecutiveFailures,
                nextPoll: nextPoll)))
        case .notModified, .fetched:
            events.append(.feedUpdated(FeedUpdateReport(
                time: checkedAt, feedURL: applied.feed.url, podcastTitle: title, newEpisodes: applied.announced.count,
                notModified: { if case .notModified = outcome { return true } else { return false } }(), nextPoll: nextPoll)))
        }
        // Announced newest first by the store; report them oldest first, in publication order.
        let announcements = applied.announced.reversed().map {
            EpisodeAnnouncement(
                time: checkedAt, feedURL: applied.feed.url, podcastTitle: title, title: $0.title, guid: $0.guid,
                url: $0.enclosure?.url, link: $0.link, published: $0.published, duration: $0.duration,
                mimeType: $0.enclosure?.mimeType, length: $0.enclosure?.length)
        }
        for event in events { library.record(event, feedID: id) }
        for a in announcements { library.record(.newEpisode(a), feedID: id) }
        for event in events { onEvent?(event) }
        for a in announcements {
            onEvent?(.newEpisode(a))
            hooks?.run(for: a)
        }

        if configuration.once {
            if case .failed = outcome { onceFailures.append(id) }
            finishOnceIfDone()
        } else if let delay = decision.delay {
            schedule(id, after: delay)
        }
        startWaiting()
    }

    private func finishOnceIfDone() {
        guard configuration.once, isRunning, !onceReported else { return }
        let pending = slots.values.contains { $0.record.enabled && !$0.polledOnce }
        guard !pending else { return }
        onceReported = true
        onFinished?(onceFailures.sorted())
    }

    private func interval(of record: FeedRecord) -> Int {
        if let override = configuration.intervalOverride, record.intervalSeconds == store.defaultIntervalSeconds {
            return override
        }
        return record.intervalSeconds
    }

    private func snapshot(_ record: FeedRecord, keeping old: Podcast?) -> Podcast {
        var status: Podcast.Status = old?.status ?? .waiting
        if !record.enabled { status = .disabled }
        return Podcast(
            id: record.id, url: record.url, title: record.title ?? record.feedTitle, status: status,
            lastCheck: record.lastCheck, nextPoll: old?.nextPoll ?? record.nextPoll, newCount: old?.newCount ?? 0,
            lastError: record.lastError)
    }
}

// Adapts a closure to `RandomNumberGenerator`, so the jitter source can be injected.
private struct ClosureRandom: RandomNumberGenerator {
    let source: () -> UInt64
    mutating func next() -> UInt64 { source() }
}
