import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// Hooks at shutdown and hook attempts owed across runs: a hook
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
