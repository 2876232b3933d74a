import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// Each parse has a budget, timed on the daemon's scheduler from when a worker
/// took it; a parse past it fails the poll, and its late result is dropped.
@Suite struct ParseBudgetTests {
    let dir = TemporaryDirectory("budget")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()
    let executor = HeldExecutor()

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    func makeDaemon() -> (PodcastDaemon<ManualScheduler>, () -> [FeedEvent]) {
        var configuration = PodcastDaemon<ManualScheduler>.Configuration()
        configuration.parseBudget = 10
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, offLoop: executor, scheduler: scheduler,
            configuration: configuration, random: noJitter)
        final class Log { var events: [FeedEvent] = [] }
        let log = Log()
        daemon.onEvent = { log.events.append($0) }
        return (daemon, { log.events })
    }

    @Test func parseOverBudgetFailsThePollAndItsLateResultIsDropped() throws {
        let feed = try store.add(url: "http://h/a")
        let (daemon, events) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))
        #expect(executor.jobs.count == 1)
        #expect(daemon.library.podcast(id: feed.id)?.status == .polling)  // busy while parsing
        #expect(events().isEmpty)
        // Queued for a worker: no budget is running yet.
        scheduler.advance(by: 60)
        #expect(events().isEmpty)
        executor.jobs[0].started()
        scheduler.advance(by: 9.9)
        #expect(events().isEmpty)
        scheduler.advance(by: 0.1)
        guard case .feedError(let report) = try #require(events().first) else {
            Issue.record("expected a feed_error, got \(events())")
            return
        }
        #expect(report.message == "refused: parsing took longer than 10 s")
        #expect(report.health == .backingOff)
        #expect(events().count == 1)
        // The parse ends later: nothing is stored or announced.
        executor.jobs[0].finish()
        #expect(events().count == 1)
        #expect(try store.episodeCount(feedID: feed.id) == 0)
        #expect(try store.feed(id: feed.id)?.failureCount == 1)
        #expect(daemon.inFlightCount == 0)
    }

    @Test func parseWithinBudgetIsAppliedOnceAndItsTimerIsStale() throws {
        let feed = try store.add(url: "http://h/a")
        let (daemon, events) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))
        executor.jobs[0].started()
        scheduler.advance(by: 5)
        executor.jobs[0].finish()
        #expect(events().map(\.kind) == ["feed_updated", "new_episode", "new_episode"])
        scheduler.advance(by: 10)  // the budget timer fires stale
        #expect(events().count == 3)
        #expect(try store.episodeCount(feedID: feed.id) == 2)
        #expect(daemon.inFlightCount == 0)
    }

    /// Budgets are entries of the daemon's deadline heap behind one scheduler timer,
    /// and keep no response body; each still runs out exactly `parseBudget` after its start.
    @Test func budgetsShareOneTimerAndEachRunsOutOnTime() throws {
        let urls = ["http://h/a", "http://h/b", "http://h/c"]
        for url in urls { _ = try store.add(url: url) }
        let (daemon, events) = makeDaemon()
        try daemon.start()
        for url in urls { fetcher.respond(url, ok(url, "g1")) }
        #expect(scheduler.pendingCount == 0)  // queued for a worker: no budget yet
        for job in 0..<3 {
            executor.jobs[job].started()
            scheduler.advance(by: 1)
        }
        // Three budgets (due at 10, 11 and 12 s): one scheduler timer, armed for the first.
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.pendingDelays == [7])
        #expect(daemon.deadlineEntryCount == 3)
        executor.jobs[1].finish()  // b is applied; its budget entry goes stale
        #expect(events().map(\.kind) == ["feed_updated", "new_episode"])
        scheduler.advance(by: 6.9)
        #expect(events().count == 2)
        scheduler.advance(by: 0.1)  // a's budget: 10 s after its start
        #expect(events().map(\.kind) == ["feed_updated", "new_episode", "feed_error"])
        #expect(scheduler.pendingDelays == [1])  // b's stale entry, then c's
        scheduler.advance(by: 1.9)
        #expect(events().count == 3)
        scheduler.advance(by: 0.1)  // c's budget
        #expect(events().map(\.kind) == ["feed_updated", "new_episode", "feed_error", "feed_error"])
        guard case .feedError(let report) = events()[3] else { return }
        #expect(report.feedURL == "http://h/c")
        #expect(report.message == "refused: parsing took longer than 10 s")
        #expect(daemon.inFlightCount == 0)
        // Only the three next polls are left (b in an hour, a and c after a backoff), one timer.
        #expect(scheduler.pendingCount == 1)
        #expect(daemon.deadlineEntryCount == 3)
    }

    @Test func stopCancelsTheParse() throws {
        _ = try store.add(url: "http://h/a")
        let (daemon, events) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        daemon.stop()
        #expect(executor.jobs[0].cancelled())
        executor.jobs[0].finish()
        #expect(events().isEmpty)
    }
}
