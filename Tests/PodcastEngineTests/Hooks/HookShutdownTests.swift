import Foundation
import Testing

@testable import PodcastKit

#if canImport(Glibc)
import Glibc
#endif

/// Hooks at shutdown and hook attempts owed across runs (issue 17, fresh-user review): a hook
/// still running at SIGTERM gets a grace, then its process group is killed and the attempt is
/// owed to the next start; a retry owed is persisted and resumed. Delays on a virtual clock.
@Suite struct HookShutdownTests {
    func temp() -> String { NSTemporaryDirectory() + "hook-shutdown-\(UUID().uuidString)" }

    func episode(_ title: String = "T") -> EpisodeAnnouncement {
        var e = EpisodeAnnouncement(
            time: Date(), feedURL: "http://h/f", podcastTitle: "Show", title: title, guid: "g", url: nil)
        e.feedID = 7
        e.episodeID = 70
        return e
    }

    func settle(_ runner: HookRunner) {
        let deadline = Date().addingTimeInterval(20)
        while runner.runningCount > 0 && Date() < deadline {
            runner.reap()
            usleep(2000)
        }
    }

    func pid(in file: String) throws -> pid_t {
        let deadline = Date().addingTimeInterval(20)
        while (try? String(contentsOfFile: file, encoding: .utf8))?.hasSuffix("\n") != true && Date() < deadline {
            usleep(2000)
        }
        return try #require(
            Int32((try String(contentsOfFile: file, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// It was left running, orphaned, when the daemon exited. Now: `shutdownGrace` seconds, then
    /// SIGKILL to its group (the grandchild goes too), reported as interrupted, then completion.
    @Test func runningHookGetsTheGraceThenItsGroupIsKilled() throws {
        let pidFile = temp()
        defer { unlink(pidFile) }
        let clock = ManualClock()
        let runner = HookRunner(command: "sleep 300 & echo $! > \(pidFile); wait", policy: .init(retries: 3))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.run(for: episode())
        let sleeper = try pid(in: pidFile)
        var completed = 0
        runner.shutDown { completed += 1 }
        #expect(clock.requested == [HookRunner.shutdownGrace])
        #expect(HookRunner.shutdownGrace == 5)
        clock.advance(by: 4.9)
        runner.reap()
        #expect(runner.runningCount == 1 && outcomes.isEmpty && completed == 0)
        clock.advance(by: 0.1)
        settle(runner)
        #expect(outcomes == [.interrupted(.signalled(SIGKILL), attempt: 1)])
        #expect(completed == 1)
        let deadline = Date().addingTimeInterval(20)
        while kill(sleeper, 0) == 0 && Date() < deadline { usleep(2000) }
        #expect(kill(sleeper, 0) == -1 && errno == ESRCH)
        // Nothing is retried in this process any more.
        clock.advance(by: 1000)
        settle(runner)
        #expect(runner.runningCount == 0 && outcomes.count == 1)
    }

    /// A hook that ends within the grace is reported as usual; a failure reports its retry (for
    /// the caller to persist) but none is scheduled here. No hook running: completion at once.
    @Test func hookEndingWithinTheGraceIsReportedAndItsRetryOwed() {
        let clock = ManualClock()
        let runner = HookRunner(command: "sleep 0.2; exit 3", policy: .init(retries: 2, firstRetryDelay: 15))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.run(for: episode())
        var completed = 0
        runner.shutDown { completed += 1 }
        settle(runner)
        #expect(outcomes == [.retrying(.exited(3), attempt: 1, delay: 15)])
        #expect(completed == 1)
        #expect(runner.retryingCount == 0)
        #expect(clock.requested == [HookRunner.shutdownGrace])  // no 15 s retry timer

        let idle = HookRunner(command: "true")
        var idleCompleted = 0
        idle.shutDown { idleCompleted += 1 }
        #expect(idleCompleted == 1)
    }

    /// A second SIGTERM does not wait out the grace.
    @Test func secondShutDownKillsAtOnce() {
        let clock = ManualClock()
        let runner = HookRunner(command: "sleep 300", policy: .init(retries: 0))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.run(for: episode())
        var completed = 0
        runner.shutDown { completed += 1 }
        runner.shutDown { completed += 100 }
        settle(runner)
        #expect(outcomes == [.interrupted(.signalled(SIGKILL), attempt: 1, grace: nil)])
        #expect(completed == 1)
    }

    /// `resume` runs an owed attempt at its time, numbered as it was: attempt 3 of 4 fails into
    /// the last retry (60 s), not into a fresh series.
    @Test func resumedAttemptKeepsItsNumber() {
        let clock = ManualClock()
        let runner = HookRunner(command: "exit 1", policy: .init(retries: 3, firstRetryDelay: 15))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.resume(episode(), attempt: 3, after: 10)
        #expect(runner.retryingCount == 1 && runner.runningCount == 0)
        clock.advance(by: 9.9)
        #expect(runner.runningCount == 0)
        clock.advance(by: 0.1)
        settle(runner)
        #expect(outcomes == [.retrying(.exited(1), attempt: 3, delay: 60)])
        clock.advance(by: 60)
        settle(runner)
        #expect(outcomes.last == .failed(.exited(1), attempts: 4))
        // Overdue: at once.
        let now = HookRunner(command: "true", policy: .init(retries: 1))  // attempt 2 within the limit
        var done: [HookRunner.Outcome] = []
        now.onOutcome = { done.append($1) }
        now.resume(episode(), attempt: 2, after: 0)
        #expect(now.runningCount == 1)
        settle(now)
        #expect(done == [.succeeded(attempts: 2)])
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
        var e = episode()
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

    /// The JSON line, keys in order.
    @Test func hookFailedJSONLine() {
        var e = EpisodeAnnouncement(
            time: Date(timeIntervalSince1970: 0), feedURL: "https://u:pw@h/f", podcastTitle: "Show", title: "Ep\u{1b}",
            guid: "g1", url: nil)
        e.feedID = 1
        let retry = FeedEvent.hookFailed(
            HookFailureReport(
                time: Date(timeIntervalSince1970: 1_800_000_000), episode: e, error: "exited with status 3", attempt: 1,
                attempts: 4, retryAt: Date(timeIntervalSince1970: 1_800_000_015), gaveUp: false))
        #expect(
            retry.jsonLine
                == "{\"event\":\"hook_failed\",\"time\":\"2027-01-15T08:00:00Z\",\"feed_url\":\"https://u:***@h/f\",\"podcast_title\":\"Show\",\"episode_title\":\"Ep\\u001b\",\"episode_guid\":\"g1\",\"error\":\"exited with status 3\",\"attempt\":1,\"attempts\":4,\"retry_at\":\"2027-01-15T08:00:15Z\",\"gave_up\":false}\n"
        )
    }
}
