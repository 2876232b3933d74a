import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing
import ViewModelKit

@testable import PodcastEngine
@testable import PodcastStore

/// Nothing in the poll path is O(N) per feed. The same cycles are run over a small and
/// a large subscription list, counting the work each poll does: the store's statements, SQLite's
/// VM steps (an indexed lookup costs the same steps at any table size; a scan grows with it),
/// fetches and library changes. Per feed, the counts must be identical at both sizes.
@Suite struct PollScalingTests {
    /// What one cycle of polls cost, in total.
    struct CycleWork: Equatable {
        var store: StatementMeter.Work
        var fetches: Int
        var libraryChanges: Int
        var events: Int
    }

    /// Polls `feeds` feeds (spread over 3 hosts) three times an hour apart: 200 with 5 episodes,
    /// 200 with one more, then 304. Returns the work of the second and third cycles.
    func cycles(feeds: Int) throws -> (fetched: CycleWork, notModified: CycleWork) {
        let dir = TemporaryDirectory("scaling")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        var ids: [Int64] = []
        for index in 0..<feeds { ids.append(try store.add(url: "http://h\(index % 3)/feed/\(index)").id) }
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        var round = 1
        fetcher.autoRespond = { request in
            switch round {
            case 1: return ok(request.url, "g1,g2,g3,g4,g5", etag: "\"v1\"")
            case 2: return ok(request.url, "g1,g2,g3,g4,g5,g6", etag: "\"v2\"")
            default: return notModified(request.url)
            }
        }
        let clock = Date(timeIntervalSince1970: 1_000_000)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            now: { [scheduler] in clock.addingTimeInterval(Double(scheduler.now.nanoseconds) / 1e9) },
            random: noJitter)
        var events = 0
        daemon.onEvent = { _ in events += 1 }
        var changes = 0
        let counting = daemon.library.objectWillChange.sink { _ in changes += 1 }
        defer { counting.cancel() }
        try daemon.start()
        #expect(daemon.completedPolls == feeds)

        let meter = StatementMeter(store.database)
        func measureCycle(_ number: Int) -> CycleWork {
            round = number
            meter.reset()
            let before = (fetcher.requests.count, changes, events)
            scheduler.advance(by: 3600)
            return CycleWork(
                store: meter.work, fetches: fetcher.requests.count - before.0, libraryChanges: changes - before.1,
                events: events - before.2)
        }
        let fetched = measureCycle(2)
        let unchanged = measureCycle(3)
        meter.stop()
        #expect(daemon.completedPolls == 3 * feeds)
        #expect(try ids.allSatisfy { try store.episodeCount(feedID: $0) == 6 })
        daemon.stop()
        return (fetched, unchanged)
    }

    /// What one poll cost: `work` divided by `feeds`, exactly (a remainder means some feed did
    /// other work). VM steps are per statement, leaving out `BEGIN` and `COMMIT`, whose first
    /// run in a cycle takes a few steps more than the others.
    struct PollWork: Equatable {
        var statements: Int
        var bySQL: [String: Int]
        var stepsBySQL: [String: Int]
        var fullScanSteps: Int
        var sorts: Int
        var fetches: Int
        var libraryChanges: Int
        var events: Int
    }

    func perFeed(_ work: CycleWork, feeds: Int) -> PollWork? {
        func divide(_ value: Int) -> Int? { value % feeds == 0 ? value / feeds : nil }
        guard let statements = divide(work.store.statements), let scans = divide(work.store.fullScanSteps),
            let sorts = divide(work.store.sorts), let fetches = divide(work.fetches),
            let changes = divide(work.libraryChanges), let events = divide(work.events)
        else { return nil }
        var bySQL: [String: Int] = [:]
        for (sql, count) in work.store.bySQL {
            guard let each = divide(count) else { return nil }
            bySQL[sql] = each
        }
        var stepsBySQL: [String: Int] = [:]
        for (sql, steps) in work.store.stepsBySQL where !sql.hasPrefix("BEGIN") && !sql.hasPrefix("COMMIT") {
            guard let each = divide(steps) else { return nil }
            stepsBySQL[sql] = each
        }
        return PollWork(
            statements: statements, bySQL: bySQL, stepsBySQL: stepsBySQL, fullScanSteps: scans, sorts: sorts,
            fetches: fetches,
            libraryChanges: changes, events: events)
    }

    /// The poller keeps its feeds' next polls in one heap behind a single scheduler timer, not a
    /// timer per feed; superseded entries are dropped before they outnumber the live ones.
    @Test func oneSchedulerTimerServesEveryFeed() throws {
        let feeds = 600
        let dir = TemporaryDirectory("one-timer")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        for index in 0..<feeds { _ = try store.add(url: "http://h\(index % 3)/feed/\(index)") }
        let scheduler = ManualScheduler()
        let fetcher = ScriptedFetcher()
        fetcher.autoRespond = { ok($0.url, "g1", etag: "\"v1\"") }
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, random: noJitter)
        try daemon.start()
        #expect(daemon.completedPolls == feeds)
        #expect(scheduler.pendingCount == 1)
        #expect(scheduler.pendingDelays == [3600])
        #expect(daemon.deadlineEntryCount == feeds)
        #expect(daemon.pendingPollDelays == Array(repeating: 3600, count: feeds))
        scheduler.advance(by: 3600)
        #expect(daemon.completedPolls == 2 * feeds)
        #expect(scheduler.pendingCount == 1)
        #expect(daemon.deadlineEntryCount == feeds)
        // Polling all now supersedes every scheduled poll: 600 stale entries and 600 new ones.
        daemon.pollAllNow()
        #expect(daemon.completedPolls == 3 * feeds)
        #expect(daemon.deadlineEntryCount == 2 * feeds)
        // Again: at the first new entry the stale ones are 601 of 1,200, so the heap is rebuilt
        // with the 599 live ones, and the 599 polls after it add theirs.
        daemon.pollAllNow()
        #expect(daemon.deadlineEntryCount == 2 * feeds - 1)
        #expect(daemon.pendingPollDelays == Array(repeating: 3600, count: feeds))
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: 3600)
        #expect(daemon.completedPolls == 5 * feeds)
        daemon.stop()
        #expect(scheduler.pendingCount == 0)
    }

    @Test func perFeedPollWorkDoesNotGrowWithTheNumberOfFeeds() throws {
        let small = 12
        let large = 600
        let a = try cycles(feeds: small)
        let b = try cycles(feeds: large)
        let smallFetched = try #require(perFeed(a.fetched, feeds: small))
        let largeFetched = try #require(perFeed(b.fetched, feeds: large))
        let smallUnchanged = try #require(perFeed(a.notModified, feeds: small))
        let largeUnchanged = try #require(perFeed(b.notModified, feeds: large))
        // The same statements, the same number of times, each taking the same SQLite VM steps,
        // per poll at 12 and at 600 feeds: a scan of feeds or episodes would add a step per row.
        #expect(largeFetched == smallFetched)
        #expect(largeUnchanged == smallUnchanged)
        #expect(!smallUnchanged.stepsBySQL.isEmpty)
        // What a poll costs, so a change to it shows here: a 304 is one fetch, one event, one
        // transaction of a feed read and one UPDATE; nothing scans or sorts.
        #expect(smallUnchanged.fetches == 1)
        #expect(smallUnchanged.events == 1)
        #expect(smallUnchanged.statements == 4)
        #expect(smallUnchanged.fullScanSteps == 0)
        #expect(smallUnchanged.sorts == 0)
        #expect(smallFetched.fullScanSteps == 0)
        #expect(smallFetched.sorts == 0)
        #expect(smallFetched.events == 2)  // feed_updated and new_episode
    }
}
