import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// How `run` reports a hook's outcomes (`DaemonSession.reportTerminations`): the stderr lines, the
/// outcome recorded on the feed, the `hook_failed` events and the attempts owed in the store.
/// Delays run on a virtual clock; children are real processes.
@Suite struct HookReportTests {
    /// A virtual clock for `HookRunner.after` (as in `HookRetryTests`).
    final class ManualClock {
        private(set) var now = 0.0
        private var pending: [(at: Double, order: Int, action: () -> Void)] = []
        private var order = 0

        func after(_ seconds: Double, _ action: @escaping () -> Void) {
            order += 1
            pending.append((now + seconds, order, action))
        }

        func advance(by seconds: Double) {
            let target = now + seconds
            while let next = pending.filter({ $0.at <= target }).min(by: { ($0.at, $0.order) < ($1.at, $1.order) }) {
                pending.removeAll { $0.order == next.order }
                now = next.at
                next.action()
            }
            now = target
        }
    }

    func temp() -> String { NSTemporaryDirectory() + "hook-report-\(UUID().uuidString)" }

    func episode(_ title: String = "T") -> EpisodeAnnouncement {
        var e = EpisodeAnnouncement(
            time: Date(), feedURL: "http://h/f", podcastTitle: nil, title: title, guid: "g", url: nil)
        e.feedID = 7
        return e
    }

    /// Reaps until nothing runs (the children end on their own).
    func settle(_ runner: HookRunner) {
        let deadline = Date().addingTimeInterval(20)
        while runner.runningCount > 0 && Date() < deadline {
            runner.reap()
            usleep(2000)
        }
    }

    @Test func reportLinesAndTheRecordedOutcome() {
        let errors = CapturedConsole()
        let runner = HookRunner(command: "true", policy: .init(retries: 3))
        var recorded: [(Int64, String?)] = []
        DaemonSession.reportTerminations(
            of: runner, to: errors.console(), record: { recorded.append(($0, $1)) }, finished: { _ in })
        runner.onOutcome?(episode(), .retrying(.exited(1), attempt: 1, delay: 15))
        runner.onOutcome?(episode(), .failed(.timedOut(600), attempts: 4))
        runner.onOutcome?(episode(), .succeeded(attempts: 1))
        #expect(
            errors.err == """
                podcast-watch: hook exited with status 1 for "T" (attempt 1 of 4); retrying in 15 s
                podcast-watch: hook timed out after 600 s and was killed for "T"; gave up after 4 attempts

                """)
        #expect(recorded.map(\.0) == [7, 7])
        #expect(recorded.map(\.1) == ["timed out after 600 s and was killed for \"T\" (4 attempts)", nil])
    }

    /// A reload lowering `hook-retries` while attempt 3 is owed: it is given up at once (not run
    /// later as "attempt 3 of 1"), reported with consistent numbers, and nothing runs after.
    @Test func loweringRetriesGivesUpAnOwedAttemptBeyondTheNewLimit() throws {
        let count = temp()
        defer { unlink(count) }
        let clock = ManualClock()
        let errors = CapturedConsole()
        let runner = HookRunner(command: "echo x >> \(count); exit 1", policy: .init(retries: 3, firstRetryDelay: 15))
        runner.after = clock.after
        var reports: [HookFailureReport] = []
        DaemonSession.reportTerminations(
            of: runner, to: errors.console(),
            report: { event, _ in if case .hookFailed(let r) = event { reports.append(r) } }, finished: { _ in })
        var outcomes: [HookRunner.Outcome] = []
        let report = runner.onOutcome
        runner.onOutcome = {
            outcomes.append($1)
            report?($0, $1)
        }
        runner.run(for: episode())
        settle(runner)
        clock.advance(by: 15)
        settle(runner)
        #expect(outcomes.count == 2)
        #expect(runner.retryingCount == 1)  // attempt 3 owed in 30 s
        runner.policy = .init(retries: 0, firstRetryDelay: 15)
        #expect(outcomes.last == .gaveUp(lastError: "exited with status 1", attempts: 2))
        #expect(runner.retryingCount == 0)
        clock.advance(by: 1000)
        settle(runner)
        #expect(try String(contentsOfFile: count, encoding: .utf8) == "x\nx\n")  // attempt 3 never ran
        #expect(outcomes.count == 3)
        #expect(reports.map { [$0.attempt, $0.attempts] } == [[1, 4], [2, 4], [2, 2]])
        #expect(reports.map(\.gaveUp) == [false, false, true])
        #expect(
            errors.err.hasSuffix(
                "podcast-watch: hook exited with status 1 for \"T\"; gave up after 2 attempts (hook-retries is now 0)\n"
            ))
        // A resumed attempt beyond the limit (owed by a run with a higher one) is given up too.
        runner.resume(episode(), attempt: 4, after: 0, lastError: "exited with status 9")
        #expect(outcomes.last == .gaveUp(lastError: "exited with status 9", attempts: 3))
        #expect(runner.runningCount == 0)
    }

    /// The session's bookkeeping: a retry is saved (next attempt, due after the delay), an
    /// interrupted attempt is saved as the same attempt due now, the final result forgets it;
    /// each failure is a `hook_failed` event.
    @Test func outcomesArePersistedAndReported() throws {
        let dir = TemporaryDirectory("hook-persist")
        let store = try FeedStore(path: dir.file("state.db"))
        let feed = try store.add(url: "http://h/f")
        _ = try store.apply(
            update: FeedUpdate(
                feedID: feed.id,
                outcome: .fetched(
                    ParsedFeed(
                        format: .rss, channel: Channel(title: "Show"), episodes: [Episode(guid: "g", title: "T")]),
                    etag: nil,
                    lastModified: nil), checkedAt: Date(), nextPoll: nil))
        let stored = try #require(try store.episodes(feedID: feed.id).first)
        // The episode as `HookShutdownTests` builds it (a podcast title, an episode id).
        var e = EpisodeAnnouncement(
            time: Date(), feedURL: "http://h/f", podcastTitle: "Show", title: "T", guid: "g", url: nil)
        e.feedID = feed.id
        e.episodeID = stored.id

        let errors = CapturedConsole()
        let runner = HookRunner(command: "true", policy: .init(retries: 3))
        var events: [FeedEvent] = []
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        DaemonSession.reportTerminations(
            of: runner, to: errors.console(), retries: store,
            report: { event, id in
                #expect(id == feed.id)
                events.append(event)
            }, now: { t0 }, finished: { _ in })

        runner.onOutcome?(e, .retrying(.exited(1), attempt: 1, delay: 15))
        var pending = try store.pendingHookRetries()
        #expect(
            pending.map(\.retry) == [
                PendingHookRetry(
                    episodeID: stored.id, attempt: 2, due: t0 + 15, lastError: "exited with status 1", attempts: 4)
            ])
        #expect(pending.map(\.episode.guid) == ["g"])

        runner.onOutcome?(e, .interrupted(.signalled(SIGKILL), attempt: 2))
        pending = try store.pendingHookRetries()
        #expect(
            pending.map(\.retry) == [
                PendingHookRetry(
                    episodeID: stored.id, attempt: 2, due: t0,
                    lastError: "still running at shutdown; killed after the 5 s grace", attempts: 4)
            ])
        // Killed at a second signal: no grace was waited, and the message says so.
        runner.onOutcome?(e, .interrupted(.signalled(SIGKILL), attempt: 2, grace: nil))
        #expect(
            try store.pendingHookRetries().map(\.retry.lastError) == [
                "still running at shutdown; killed at a second signal"
            ])
        runner.onOutcome?(e, .failed(.exited(1), attempts: 4))
        #expect(try store.pendingHookRetries().isEmpty)
        runner.onOutcome?(e, .retrying(.exited(1), attempt: 1, delay: 15))
        runner.onOutcome?(e, .succeeded(attempts: 2))
        #expect(try store.pendingHookRetries().isEmpty)

        let report = { (error: String, attempt: Int, retryAt: Date?, gaveUp: Bool) in
            FeedEvent.hookFailed(
                HookFailureReport(
                    time: t0, episode: e, error: error, attempt: attempt, attempts: 4, retryAt: retryAt, gaveUp: gaveUp)
            )
        }
        #expect(
            events == [
                report("exited with status 1", 1, t0 + 15, false),
                report("still running at shutdown; killed after the 5 s grace", 2, nil, false),
                report("still running at shutdown; killed at a second signal", 2, nil, false),
                report("exited with status 1", 4, nil, true),
                report("exited with status 1", 1, t0 + 15, false),
            ])
        #expect(
            errors.err.contains(
                "podcast-watch: warning: hook for \"T\" was still running at shutdown; killed after the 5 s grace (attempt 2 of 4); it runs again at the next start\n"
            ))
        #expect(
            errors.err.contains(
                "podcast-watch: warning: hook for \"T\" was still running at shutdown; killed at a second signal (attempt 2 of 4); it runs again at the next start\n"
            ))
        // A removed feed takes its owed retries with it.
        runner.onOutcome?(e, .retrying(.exited(1), attempt: 1, delay: 15))
        _ = try store.remove(id: feed.id)
        #expect(try store.database.scalarInt("SELECT count(*) FROM hook_retries") == 0)
    }
}
