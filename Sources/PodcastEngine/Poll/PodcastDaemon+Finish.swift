import Foundation
import LoopScheduler
import PodcastFeeds
import PodcastStore

// The end of one poll, as a pipeline of small named steps:
//   classify (PollClassification) -> decide the next poll (PollPolicy) -> apply to the store
//   -> report warnings -> show in the library -> report events -> deliver announcements
//   -> schedule the next poll.
// The deciding steps are pure (`warnings(of:applied:)`, `events(of:...)`); the others each do
// one effect, in the order the views, the store and the hooks rely on.
extension PodcastDaemon {
    /// A warning about one feed: `key` says whether it is the same warning as last time (it is
    /// reported once while it lasts), `message` is what the user reads.
    typealias FeedWarning = (key: String, message: String)

    // Applies a finished poll: `parsed` is the parse of a 2xx body (nil for a 304 or a failure).
    // A completion for a feed removed meanwhile, or for an abandoned fetch, is ignored.
    func finish(_ id: Int64, serial: UInt32, _ result: FetchResult, parsed: Result<ParsedFeed, Error>?) {
        guard isRunning, let slot = slots[id], slot.isFetching, slot.fetchSerial == serial else { return }
        endFetch(id, slot)
        let checkedAt = now()
        let poll = PollClassification(
            result, parsed: parsed, sentValidators: slot.etag != nil || slot.lastModified != nil, checkedAt: checkedAt)
        let decision = decideNextPoll(after: poll.policy, slot: noteSchedule(id, slot, parsed: parsed))
        let nextPoll = decision.delay.map { checkedAt.addingTimeInterval($0) }
        let update = FeedUpdate(
            feedID: id, outcome: poll.update, permanentRedirect: poll.redirect, checkedAt: checkedAt, nextPoll: nextPoll
        )
        guard let applied = applyToStore(update) else { return }
        let warnings = reportNew(
            Self.warnings(of: poll.update, applied: applied), of: applied.feed, outcome: poll.update)
        showInLibrary(
            applied.feed, outcome: poll.update, health: decision.health, checkedAt: checkedAt, nextPoll: nextPoll)
        let events = Self.events(
            of: poll.update, applied: applied, decision: decision, warnings: warnings, checkedAt: checkedAt,
            nextPoll: nextPoll)
        report(events, announcing: applied, checkedAt: checkedAt)
        scheduleAfterPoll(id, failed: poll.failed, delay: decision.delay, host: slot.fetchHost)
    }

    // The poll is no longer in flight: its slot (and its host's) is free for the next one.
    private func endFetch(_ id: Int64, _ slot: PollSlot) {
        release(slot)
        slots.update(id) { slot in
            slot.isFetching = false
            slot.fetchHost = HostTable.none
        }
        inFlight[id] = nil
    }

    // A feed without an interval of its own follows the schedule its document states
    // (`podcast:updateFrequency`), within the configured bounds; a document that states none
    // drops the hint. A 304 or a failure keeps the last one.
    private func noteSchedule(_ id: Int64, _ slot: PollSlot, parsed: Result<ParsedFeed, Error>?) -> PollSlot {
        guard case .success(let feed)? = parsed else { return slot }
        let schedule = feed.channel.updateFrequency
        let hint = configuration.policy.hintedInterval(
            stated: schedule?.statedInterval, complete: schedule?.complete ?? false,
            base: interval(seconds: slot.intervalSeconds.map(Int.init)))
        var noted = slot
        noted.hintedIntervalSeconds = hint.map { Int32(clamping: Int64($0.rounded())) }
        slots.update(id) { $0.hintedIntervalSeconds = noted.hintedIntervalSeconds }
        return noted
    }

    private func decideNextPoll(after outcome: PollPolicy.Outcome, slot: PollSlot) -> PollPolicy.Decision {
        var rng = ClosureRandom(source: random)
        let own = slot.intervalSeconds.map(Int.init)
        let every = interval(seconds: own ?? slot.hintedIntervalSeconds.map(Int.init))
        return configuration.policy.decide(
            after: outcome, previousFailures: Int(slot.failureCount), interval: every, using: &rng)
    }

    // One transaction; a store error stops the daemon (`onFatalError`). The slot takes the
    // committed row, so the next request carries its validators.
    private func applyToStore(_ update: FeedUpdate) -> FeedUpdateResult? {
        let applied: FeedUpdateResult
        do {
            applied = try store.apply(update: update)
        } catch {
            stop()
            onFatalError?(error)
            return nil
        }
        completedPolls += 1
        onCommitted?(applied)
        slots.update(update.feedID) { slot in
            slot.take(applied.feed, hosts: &hosts)
            slot.polledOnce = true
        }
        unpolled.remove(update.feedID)
        return applied
    }

    /// What is worth a warning after a poll: a malformed document (stored what was recovered,
    /// nothing deleted, validators dropped so the next poll fetches it whole), with the first XML
    /// error rather than an encoding note; the parser's notes on duplicate guids and on the
    /// per-poll cap (the parser drops repeated guids itself, so its notes are their only trace);
    /// and the store's own. Pure.
    static func warnings(of outcome: FeedUpdate.Outcome, applied: FeedUpdateResult) -> [FeedWarning] {
        var warnings: [FeedWarning] = []
        if case .fetched(let parsed, _, _) = outcome {
            if !parsed.isWellFormed { warnings.append(malformedWarning(parsed)) }
            warnings += parsed.warnings.filter {
                $0.hasPrefix("duplicate guid") || $0.hasPrefix(PodcastDaemon.capWarningPrefix)
            }.map { ($0, $0) }
        }
        warnings += applied.warnings.map { ($0, $0) }
        return warnings
    }

    private static func malformedWarning(_ parsed: ParsedFeed) -> FeedWarning {
        let cause = parsed.warnings.first { $0.hasPrefix("XML error") } ?? parsed.warnings.first
        // What the store keeps of a degraded parse: distinct items it can identify (a guid or an
        // enclosure); items known only by link or title hash are skipped.
        let kept = Set(parsed.episodes.map(EpisodeIdentity.init).filter(\.isStrong).map(\.key)).count
        let recovered = parsed.episodes.count
        let what =
            "\(kept == recovered ? "the \(kept)" : "\(kept) of the \(recovered)") \(recovered == 1 ? "item" : "items")"
        return (
            "malformed: " + (cause ?? ""),
            "the feed is not well-formed; kept \(what) recovered, deleted nothing" + (cause.map { ": \($0)" } ?? "")
        )
    }

    // Reports (on `onWarning`) the warnings that were not there after the feed's last poll with
    // a document, and returns them: each is reported when it appears, not on every poll while it
    // lasts. A 304 or a failure changes nothing. Only feeds with warnings get an entry (an empty
    // set per feed cost a slot of the table).
    private func reportNew(_ warnings: [FeedWarning], of feed: FeedRecord, outcome: FeedUpdate.Outcome)
        -> [FeedWarning]
    {
        let previous = reportedWarnings[feed.id] ?? []
        if case .fetched = outcome { reportedWarnings[feed.id] = warnings.isEmpty ? nil : Set(warnings.map(\.key)) }
        let fresh = warnings.filter { !previous.contains($0.key) }
        for warning in fresh { onWarning?("\(feed.label): \(warning.message)") }
        return fresh
    }

    // The library first, so a view updated in this iteration sees the same state as the events.
    private func showInLibrary(
        _ feed: FeedRecord, outcome: FeedUpdate.Outcome, health: FeedHealth, checkedAt: Date, nextPoll: Date?
    ) {
        var view = snapshot(feed, keeping: library.podcast(id: feed.id))
        view.url = slots[feed.id]!.url  // one copy of the URL for the slot and the row
        view.lastCheck = checkedAt
        view.nextPoll = nextPoll
        view.status = Podcast.Status(health)
        if case .failed(let failure) = outcome { view.lastError = failure.message } else { view.lastError = nil }
        library.upsert(view)
    }

    /// The events of one poll, in order: URL moves, then `feed_error`, or the new warnings and
    /// `feed_updated`. Announcements are not among them (they are delivered). Pure.
    static func events(
        of outcome: FeedUpdate.Outcome, applied: FeedUpdateResult, decision: PollPolicy.Decision,
        warnings: [FeedWarning], checkedAt: Date, nextPoll: Date?
    ) -> [FeedEvent] {
        let feed = applied.feed
        let title = feed.knownTitle  // null in JSON when unknown, never the URL
        var events: [FeedEvent] = applied.moves.map {
            .feedMoved(FeedMoveReport(time: checkedAt, from: $0.from, to: $0.to, reason: $0.reason.rawValue))
        }
        switch outcome {
        case .failed(let failure):
            events.append(
                .feedError(
                    FeedErrorReport(
                        time: checkedAt, feedURL: feed.url, podcastTitle: title, httpStatus: failure.httpStatus,
                        message: failure.message, health: decision.health,
                        consecutiveFailures: decision.consecutiveFailures, nextPoll: nextPoll)))
        case .notModified, .fetched:
            events += warnings.map {
                .feedWarning(
                    FeedWarningReport(time: checkedAt, feedURL: feed.url, podcastTitle: title, message: $0.message))
            }
            var notModified = false
            if case .notModified = outcome { notModified = true }
            events.append(
                .feedUpdated(
                    FeedUpdateReport(
                        time: checkedAt, feedURL: feed.url, podcastTitle: title,
                        newEpisodes: applied.announced.count, notModified: notModified, nextPoll: nextPoll)))
        }
        return events
    }

    // Journal first (events, then the new episodes), then the event callbacks, then the
    // announcements' delivery. The store announced newest first; they go out oldest first, in
    // publication order.
    private func report(_ events: [FeedEvent], announcing applied: FeedUpdateResult, checkedAt: Date) {
        let id = applied.feed.id
        let announcements = applied.announced.reversed().map {
            (episodeID: $0.id, announcement: PodcastDaemon.announcement($0, feed: applied.feed, time: checkedAt))
        }
        for event in events { library.record(event, feedID: id) }
        let sequences = announcements.map { library.record(.newEpisode($0.announcement), feedID: id) }
        for event in events { onEvent?(event) }
        deliver(
            zip(announcements, sequences).map {
                (announcement: $0.announcement, episodeID: $0.episodeID, journalSequence: $1)
            })
    }

    // `once`: counts the feed as done (and failed); otherwise its next poll. Then the feeds that
    // waited for this poll's place: its host's first, then the global queue.
    private func scheduleAfterPoll(_ id: Int64, failed: Bool, delay: Double?, host: Int32) {
        if configuration.once {
            if failed { onceFailures.append(id) }
            finishOnceIfDone()
        } else if let delay {
            schedule(id, after: delay)
        }
        startHostWaiting(host)
        startWaiting()
    }

    func snapshot(_ record: FeedRecord, keeping old: Podcast?) -> Podcast {
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
}

// Adapts a closure to `RandomNumberGenerator`, so the jitter source can be injected.
private struct ClosureRandom: RandomNumberGenerator {
    let source: () -> UInt64
    mutating func next() -> UInt64 { source() }
}
