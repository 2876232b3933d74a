import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore
import PodcastWeb

#if canImport(Glibc)
import Glibc
#endif

// The hook runner's outcomes as `run` reports them (stderr, the store, the views), and the hook
// attempts an earlier run owed.
extension DaemonSession {
    /// Sets `runner.onTermination` to call `finished` with the runner once a hook ended, and
    /// `runner.onOutcome` to report failed attempts on `console` (one line each: the retry to
    /// come, or the final failure) and hand each final result to `record` (feed id, `nil` for
    /// success or the failure's text) for the store. The closures hold the runner weakly: the
    /// runner owns them, so a strong capture was a cycle that leaked one runner per session.
    ///
    /// `retries`: the store where an attempt still owed is kept (`.retrying`: the next attempt,
    /// due after its delay; `.interrupted`: the same attempt, due at once) and forgotten on the
    /// final result, so a stop loses no retry. `report`: each failed attempt as a `hook_failed`
    /// event (with the feed id), for the JSON lines. `retriesChanged`: the feed id after each
    /// change of what it owes (the live views show it). `now` is the wall clock.
    static func reportTerminations(
        of runner: HookRunner, to console: Console, record: ((Int64, String?) -> Void)? = nil,
        retries store: (any FeedStoring)? = nil, retriesChanged: ((Int64) -> Void)? = nil,
        report: ((FeedEvent, Int64?) -> Void)? = nil,
        now: @escaping () -> Date = Date.init, finished: @escaping (HookRunner) -> Void
    ) {
        let reporter = HookOutcomeReporter(
            console: console, record: record, store: store, retriesChanged: retriesChanged, report: report)
        runner.onOutcome = { [weak runner] episode, outcome in
            // Read at each outcome: a reload may have changed `hook-retries`.
            let attempts = (runner?.policy.retries ?? 0) + 1
            reporter.report(
                outcome, of: episode, attempts: attempts, defersRetries: runner?.defersRetries == true, time: now())
        }
        runner.onTermination = { [weak runner] _, _ in
            if let runner { finished(runner) }
        }
    }

    // The live table's and the dashboard's rows show the hook attempts the store says are owed
    // (as `list` does): once at start and after a reload changed the limit.
    func showOwedHookRetries(_ daemon: PodcastDaemon<LoopScheduler>) {
        guard let owed = try? store.pendingHookRetries() else { return }
        for feedID in Set(owed.map(\.episode.feedID)).sorted() { daemon.noteHookRetries(feedID: feedID) }
    }

    // Schedules the hook attempts an earlier run still owed, each at its due time (at once when
    // overdue). `--once` takes only those already due: a pass must not wait out a backoff
    // (the others stay in the store for a later run).
    func resumeHookRetries(_ hooks: HookRunner) {
        do {
            let now = Date()
            for (retry, episode) in try store.pendingHookRetries() {
                let delay = max(0, retry.due.timeIntervalSince(now))
                if options.once && delay > 0 { continue }
                // Announced again at this start (the last run died before confirming it): that
                // starts a fresh series of the hook, so the owed attempt would be a second run.
                if episode.announcementPending { continue }
                guard let feed = try store.feed(id: episode.feedID) else { continue }
                hooks.resume(
                    EpisodeAnnouncement(stored: episode, feed: feed, time: episode.firstSeen), attempt: retry.attempt,
                    after: delay, lastError: retry.lastError)
            }
        } catch {
            console.err("podcast-watch: warning: cannot read the hook retries still owed: \(error)\n")
        }
    }

    /// The hook runner's policy for `options` (`--hook-retries`, `--hook-timeout`).
    static func hookPolicy(_ options: RunOptions) -> HookRunner.Policy {
        HookRunner.Policy(
            retries: options.hookRetries, firstRetryDelay: HookRunner.Policy.daemonDefault.firstRetryDelay,
            timeout: Double(options.hookTimeoutSeconds))
    }
}

// One hook outcome as `run` reports it: a line on stderr, the feed's recorded hook result, the
// attempt still owed in the store (best effort), and a `hook_failed` event for each failed
// attempt.
private struct HookOutcomeReporter {
    let console: Console
    let record: ((Int64, String?) -> Void)?
    let store: (any FeedStoring)?
    let retriesChanged: ((Int64) -> Void)?
    let report: ((FeedEvent, Int64?) -> Void)?

    // `defersRetries`: the runner keeps a retry for the next run (`--once`) instead of waiting.
    func report(
        _ outcome: HookRunner.Outcome, of episode: EpisodeAnnouncement, attempts: Int, defersRetries: Bool, time: Date
    ) {
        // Feed text: neutralised before it reaches a terminal or the journal.
        let name = TerminalText.line(episode.title ?? episode.url ?? "?")
        switch outcome {
        case .succeeded:
            if let id = episode.feedID { record?(id, nil) }
            persist(episode) { try $0.clearHookRetry(episodeID: $1) }
        case .retrying(let how, let attempt, let delay):
            let when =
                defersRetries
                ? "the retry is kept for the next run (due in \(HookRunner.Policy.format(delay)) s)"
                : "retrying in \(HookRunner.Policy.format(delay)) s"
            console.err(
                "podcast-watch: hook \(how.description) for \"\(name)\" (attempt \(attempt) of \(attempts)); \(when)\n"
            )
            let due = time.addingTimeInterval(delay)
            persist(episode) {
                try $0.saveHookRetry(
                    PendingHookRetry(
                        episodeID: $1, attempt: attempt + 1, due: due, lastError: how.description, attempts: attempts))
            }
            failure(episode, how.description, attempt: attempt, of: attempts, retryAt: due, gaveUp: false, time: time)
        case .failed(let how, let tried):
            console.err(
                "podcast-watch: hook \(how.description) for \"\(name)\"\(tried > 1 ? "; gave up after \(tried) attempts" : "")\n"
            )
            if let id = episode.feedID {
                record?(id, "\(how.description) for \"\(name)\"\(tried > 1 ? " (\(tried) attempts)" : "")")
            }
            persist(episode) { try $0.clearHookRetry(episodeID: $1) }
            failure(episode, how.description, attempt: tried, of: attempts, retryAt: nil, gaveUp: true, time: time)
        case .gaveUp(let lastError, let tried):
            console.err(
                "podcast-watch: hook \(lastError) for \"\(name)\"; gave up after \(tried) attempt\(tried == 1 ? "" : "s") (hook-retries is now \(attempts - 1))\n"
            )
            if let id = episode.feedID { record?(id, "\(lastError) for \"\(name)\" (\(tried) attempts)") }
            persist(episode) { try $0.clearHookRetry(episodeID: $1) }
            failure(episode, lastError, attempt: tried, of: attempts, retryAt: nil, gaveUp: true, time: time)
        case .interrupted(_, let attempt, let grace):
            interrupted(episode, name: name, attempt: attempt, of: attempts, grace: grace, time: time)
        }
    }

    // Still running at shutdown: owed again at once, at the next start.
    private func interrupted(
        _ episode: EpisodeAnnouncement, name: String, attempt: Int, of attempts: Int, grace: Double?, time: Date
    ) {
        let what =
            grace.map { "still running at shutdown; killed after the \(HookRunner.Policy.format($0)) s grace" }
            ?? "still running at shutdown; killed at a second signal"
        console.err(
            "podcast-watch: warning: hook for \"\(name)\" was \(what) (attempt \(attempt) of \(attempts)); it runs again at the next start\n"
        )
        persist(episode) {
            try $0.saveHookRetry(
                PendingHookRetry(episodeID: $1, attempt: attempt, due: time, lastError: what, attempts: attempts))
        }
        failure(episode, what, attempt: attempt, of: attempts, retryAt: nil, gaveUp: false, time: time)
    }

    // An attempt begun under a higher limit than a reload left: never "attempt 3 of 1".
    private func failure(
        _ episode: EpisodeAnnouncement, _ error: String, attempt: Int, of attempts: Int, retryAt: Date?, gaveUp: Bool,
        time: Date
    ) {
        report?(
            .hookFailed(
                HookFailureReport(
                    time: time, episode: episode, error: error, attempt: attempt, attempts: max(attempts, attempt),
                    retryAt: retryAt, gaveUp: gaveUp)), episode.feedID)
    }

    // Best effort: a store that cannot be written costs the retry after a stop, not the run.
    private func persist(_ episode: EpisodeAnnouncement, _ change: (any FeedStoring, Int64) throws -> Void) {
        guard let store, let id = episode.episodeID else { return }
        do {
            try change(store, id)
            if let feedID = episode.feedID { retriesChanged?(feedID) }
        } catch {
            console.err("podcast-watch: warning: cannot record the hook's retry in the state database: \(error)\n")
        }
    }
}
