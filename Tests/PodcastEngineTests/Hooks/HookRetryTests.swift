import Foundation
import Testing

@testable import PodcastEngine

#if canImport(Glibc)
import Glibc
#endif

/// A virtual clock for `HookRunner.after`: actions run when `advance` passes their time.
final class ManualClock {
    private(set) var now = 0.0
    private var pending: [(at: Double, order: Int, action: () -> Void)] = []
    private var order = 0
    /// The delays asked for, in order.
    private(set) var requested: [Double] = []

    func after(_ seconds: Double, _ action: @escaping () -> Void) {
        requested.append(seconds)
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

/// Hook retries with backoff, the timeout and the hook log. Delays run on a virtual
/// clock; children are real processes, waited for with a generous deadline.
@Suite struct HookRetryTests {
    func temp() -> String { NSTemporaryDirectory() + "hook-retry-\(UUID().uuidString)" }

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

    @Test func failingHookRunsOncePlusRetriesWithDoublingDelays() throws {
        let count = temp()
        defer { unlink(count) }
        let clock = ManualClock()
        let runner = HookRunner(command: "echo x >> \(count); exit 1", policy: .init(retries: 3, firstRetryDelay: 15))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.run(for: episode())
        settle(runner)
        #expect(outcomes == [.retrying(.exited(1), attempt: 1, delay: 15)])
        #expect(runner.retryingCount == 1)
        clock.advance(by: 14.9)  // not yet
        #expect(runner.runningCount == 0)
        clock.advance(by: 0.1)
        settle(runner)
        clock.advance(by: 30)
        settle(runner)
        clock.advance(by: 60)
        settle(runner)
        clock.advance(by: 1000)  // nothing more
        settle(runner)
        #expect(
            outcomes == [
                .retrying(.exited(1), attempt: 1, delay: 15), .retrying(.exited(1), attempt: 2, delay: 30),
                .retrying(.exited(1), attempt: 3, delay: 60), .failed(.exited(1), attempts: 4),
            ])
        #expect(clock.requested == [15, 30, 60])
        #expect(try String(contentsOfFile: count, encoding: .utf8) == "x\nx\nx\nx\n")
        #expect(runner.retryingCount == 0 && runner.queuedCount == 0)
    }

    @Test func aRetryThatSucceedsEndsTheSeries() throws {
        let marker = temp()
        defer { unlink(marker) }
        let clock = ManualClock()
        let runner = HookRunner(
            command: "[ -e \(marker) ] || { touch \(marker); kill -KILL $$; }",
            policy: .init(retries: 3, firstRetryDelay: 2))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.run(for: episode())
        settle(runner)
        clock.advance(by: 2)
        settle(runner)
        clock.advance(by: 100)
        #expect(outcomes == [.retrying(.signalled(SIGKILL), attempt: 1, delay: 2), .succeeded(attempts: 2)])
    }

    /// The timeout kills the hook's whole process group (the shell and what it started).
    @Test func hungHookIsKilledAtTheTimeout() throws {
        let pidFile = temp()
        defer { unlink(pidFile) }
        let clock = ManualClock()
        let runner = HookRunner(
            command: "sleep 300 & echo $! > \(pidFile); wait", policy: .init(retries: 0, timeout: 600))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.run(for: episode())
        let deadline = Date().addingTimeInterval(20)
        while (try? String(contentsOfFile: pidFile, encoding: .utf8))?.hasSuffix("\n") != true && Date() < deadline {
            usleep(2000)
        }
        let sleeper = try #require(
            Int32(
                (try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        clock.advance(by: 599)
        runner.reap()
        #expect(runner.runningCount == 1 && outcomes.isEmpty)
        clock.advance(by: 1)
        settle(runner)
        #expect(outcomes == [.failed(.timedOut(600), attempts: 1)])
        #expect(HookRunner.Termination.timedOut(600).description == "timed out after 600 s and was killed")
        // The grandchild went with the group (reaped by init shortly after).
        while kill(sleeper, 0) == 0 && Date() < deadline { usleep(2000) }
        #expect(kill(sleeper, 0) == -1 && errno == ESRCH)
    }

    /// A timeout that fires after its hook ended kills nothing (and reports nothing).
    @Test func lateTimeoutIsHarmless() {
        let clock = ManualClock()
        let runner = HookRunner(command: "exit 0", policy: .init(retries: 2, timeout: 5))
        runner.after = clock.after
        var outcomes: [HookRunner.Outcome] = []
        runner.onOutcome = { outcomes.append($1) }
        runner.run(for: episode())
        settle(runner)
        clock.advance(by: 10)
        #expect(outcomes == [.succeeded(attempts: 1)])
    }

    /// At shutdown (`dropQueued`) a waiting retry is dropped and counted.
    @Test func shutdownDropsWaitingRetries() {
        let clock = ManualClock()
        let runner = HookRunner(command: "exit 2", policy: .init(retries: 3, firstRetryDelay: 1))
        runner.after = clock.after
        var terminations = 0
        runner.onTermination = { _, _ in terminations += 1 }
        runner.run(for: episode())
        settle(runner)
        #expect(runner.dropQueued() == 1)
        clock.advance(by: 100)
        settle(runner)
        #expect(terminations == 1)
    }

    @Test func outputGoesToTheLogWithAHeader() throws {
        let log = temp()
        defer { unlink(log) }
        let fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(fd) }
        let runner = HookRunner(command: "echo out; echo err >&2")
        runner.outputFD = fd
        runner.run(for: episode("Ep\u{1B}[2J"))
        settle(runner)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("--- ") && lines[0].hasSuffix(" hook for \"Ep\u{241B}[2J\" (http://h/f), attempt 1"))
        #expect(Array(lines[1...]) == ["out", "err"])
    }
}
