import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

@Suite struct PodcastDaemonTests {
    let dir = TemporaryDirectory("daemon")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()
    let clock = Date(timeIntervalSince1970: 1_000_000)

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    func makeDaemon(_ configuration: PodcastDaemon<ManualScheduler>.Configuration = .init()) -> (
        PodcastDaemon<ManualScheduler>, EventLog
    ) {
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, configuration: configuration,
            now: { [clock, scheduler] in clock.addingTimeInterval(Double(scheduler.now.nanoseconds) / 1e9) },
            random: noJitter)
        let log = EventLog()
        daemon.onEvent = { log.events.append($0) }
        return (daemon, log)
    }

    final class EventLog {
        var events: [FeedEvent] = []
        var kinds: [String] { events.map(\.kind) }
        var newGuids: [String?] {
            events.compactMap { if case .newEpisode(let e) = $0 { return e.guid } else { return nil } }
        }
    }

    @Test func firstSyncAnnouncesNewestThenOnlyNewOnes() throws {
        let feed = try store.add(url: "http://h/a")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        #expect(fetcher.requests == [FetchRequest(url: "http://h/a")])
        #expect(daemon.library.podcast(id: feed.id)?.status == .polling)

        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2,g3,g4,g5", etag: "\"v1\""))
        #expect(log.kinds == ["feed_updated", "new_episode", "new_episode", "new_episode"])
        #expect(log.newGuids == ["g3", "g4", "g5"])  // newest three, oldest first
        #expect(try store.episodeCount(feedID: feed.id) == 5)
        let podcast = try #require(daemon.library.podcast(id: feed.id))
        #expect(podcast.status == .ok)
        #expect(podcast.newCount == 3)
        #expect(podcast.title == "Show of http://h/a")
        #expect(podcast.lastCheck == clock)
        #expect(daemon.library.totalNew == 3)
        #expect(daemon.library.newestEpisodes.map(\.guid) == ["g5", "g4", "g3"])
        #expect(daemon.pendingPollDelays == [3600])
        #expect(try store.feed(id: feed.id)?.nextPoll == clock.addingTimeInterval(3600))

        // An hour later: a conditional GET; one new episode is announced once.
        scheduler.advance(by: 3600)
        #expect(fetcher.requests.last == FetchRequest(url: "http://h/a", etag: "\"v1\""))
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2,g3,g4,g5,g6", etag: "\"v2\""))
        #expect(log.newGuids == ["g3", "g4", "g5", "g6"])
        #expect(try store.episodeCount(feedID: feed.id) == 6)

        // The same document again announces nothing.
        scheduler.advance(by: 3600)
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2,g3,g4,g5,g6", etag: "\"v2\""))
        #expect(log.newGuids.count == 4)
        #expect(daemon.completedPolls == 3)
    }

    @Test func notModifiedWritesNoEpisode() throws {
        let feed = try store.add(url: "http://h/a")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1", etag: "e"))
        let changes = try store.database.scalarInt("SELECT total_changes()") ?? 0
        scheduler.advance(by: 3600)
        fetcher.respond("http://h/a", notModified("http://h/a"))
        #expect(
            log.events.last
                == .feedUpdated(
                    FeedUpdateReport(
                        time: clock.addingTimeInterval(3600), feedURL: "http://h/a", podcastTitle: "Show of http://h/a",
                        newEpisodes: 0, notModified: true, nextPoll: clock.addingTimeInterval(7200))))
        #expect(try store.episodeCount(feedID: feed.id) == 1)
        // The feed row's check times only.
        #expect(try store.database.scalarInt("SELECT total_changes()")! - changes == 1)
    }

    @Test func serverErrorsBackOffAndTheNextRequestIsUnconditional() throws {
        _ = try store.add(url: "http://h/a")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1", etag: "e1"))
        scheduler.advance(by: 3600)
        fetcher.respond("http://h/a", httpError("http://h/a", 500))
        #expect(
            log.events.last
                == .feedError(
                    FeedErrorReport(
                        time: clock.addingTimeInterval(3600), feedURL: "http://h/a", podcastTitle: "Show of http://h/a",
                        httpStatus: 500, message: "HTTP 500", health: .backingOff, consecutiveFailures: 1,
                        nextPoll: clock.addingTimeInterval(3900))))
        #expect(daemon.pendingPollDelays == [300])
        scheduler.advance(by: 300)
        #expect(fetcher.requests.last == FetchRequest(url: "http://h/a"))  // no validators after a failure
        fetcher.respond("http://h/a", httpError("http://h/a", 503))
        #expect(daemon.pendingPollDelays == [600])
        let podcast = daemon.library.snapshots[0]
        #expect(podcast.status == .backingOff)
        #expect(podcast.lastError == "HTTP 503")
        scheduler.advance(by: 600)
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        #expect(daemon.library.snapshots[0].status == .ok)
        #expect(daemon.library.snapshots[0].lastError == nil)
        #expect(daemon.pendingPollDelays == [3600])
    }

    @Test func notFoundFailsAndGoneDisables() throws {
        _ = try store.add(url: "http://h/missing")
        _ = try store.add(url: "http://h/gone")
        let (daemon, _) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/missing", httpError("http://h/missing", 404))
        fetcher.respond("http://h/gone", httpError("http://h/gone", 410))
        #expect(daemon.library.snapshots.map(\.status) == [.failing, .disabled])
        #expect(daemon.pendingPollDelays == [300])  // only the 404 is polled again
        #expect(try store.feeds().map(\.enabled) == [true, false])
        scheduler.advance(by: 100_000)
        fetcher.respondAll { httpError($0, 404) }
        #expect(fetcher.requests.map(\.url).filter { $0 == "http://h/gone" }.count == 1)
    }

    @Test func unparseableBodyIsAFailure() throws {
        _ = try store.add(url: "http://h/a")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "garbage"))
        guard case .feedError(let report) = log.events.last else {
            Issue.record("no error")
            return
        }
        #expect(report.message == "not a feed: no channel")
        #expect(report.health == .backingOff)
        #expect(daemon.library.snapshots[0].status == .backingOff)
    }

    @Test func anHTMLPageIsReportedOnceAsNotAFeed() throws {
        _ = try store.add(url: "http://h/page")
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: scheduler,
            now: { [clock] in clock }, random: noJitter)
        let log = EventLog()
        daemon.onEvent = { log.events.append($0) }
        try daemon.start()
        fetcher.respond(
            "http://h/page",
            .success(
                FetchResponse(
                    status: 200, headers: ["content-type": "text/html"],
                    body: Data("<html><body>Hi</body></html>".utf8),
                    requestedURL: "http://h/page", effectiveURL: "http://h/page")))
        guard case .feedError(let report) = log.events.last else {
            Issue.record("no error")
            return
        }
        #expect(report.message == "not a feed: the root element is <html>, expected <rss>, <rdf:RDF> or <feed>")
    }

    @Test func aMalformedFeedIsReportedOnceWithItsXMLError() throws {
        _ = try store.add(url: "http://h/bad")
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: scheduler,
            now: { [clock] in clock }, random: noJitter)
        let log = EventLog()
        var stderr: [String] = []
        daemon.onEvent = { log.events.append($0) }
        daemon.onWarning = { stderr.append($0) }
        try daemon.start()
        // A Latin-1 declaration over UTF-8 (an encoding note comes first) and a broken item (a
        // complete document: a truncated one is a failed poll, FirstSyncTests).
        let body = Array(
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>Caf\u{E9}</title><item><guid>g1</guid></item><item><guid>g2</guid><title>broken</titel></item></channel></rss>"
                .utf8)
        let bad = FetchResult.success(
            FetchResponse(status: 200, body: Data(body), requestedURL: "http://h/bad", effectiveURL: "http://h/bad"))
        fetcher.respond("http://h/bad", bad)
        if case .success(let response) = bad {
            let first = try FeedParsing.parse(response).warnings.first ?? ""
            #expect(!first.hasPrefix("XML error"))  // the parser's first note is not the XML error
        }
        let message =
            "the feed is not well-formed; kept the 2 items recovered, deleted nothing: XML error at line 1: Opening and ending tag mismatch: title line 1 and titel"
        #expect(stderr == ["Caf\u{E9} <http://h/bad>: " + message])
        let warnings = log.events.filter { $0.kind == "feed_warning" }
        #expect(
            warnings == [
                .feedWarning(
                    FeedWarningReport(time: clock, feedURL: "http://h/bad", podcastTitle: "Caf\u{E9}", message: message)
                )
            ])
        #expect(
            warnings.first?.jsonLine
                == "{\"event\":\"feed_warning\",\"time\":\"1970-01-12T13:46:40Z\",\"feed_url\":\"http://h/bad\",\"podcast_title\":\"Caf\u{E9}\",\"message\":\"\(message)\"}\n"
        )

        // The same breakage on the next poll: not reported again.
        scheduler.advance(by: 3600)
        fetcher.respond("http://h/bad", bad)
        #expect(stderr.count == 1)
        #expect(log.events.filter { $0.kind == "feed_warning" }.count == 1)
        #expect(log.kinds.filter { $0 == "feed_updated" }.count == 2)
    }

    @Test func aDuplicateGuidIsReportedOncePerFeedAndWarning() throws {
        _ = try store.add(url: "http://h/dup")
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: scheduler,
            now: { [clock] in clock }, random: noJitter)
        let log = EventLog()
        var stderr: [String] = []
        daemon.onEvent = { log.events.append($0) }
        daemon.onWarning = { stderr.append($0) }
        try daemon.start()
        let body =
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Dup</title><item><guid>d1</guid><title>A</title></item><item><guid>d1</guid><title>B</title></item></channel></rss>"
        let dup = FetchResult.success(
            FetchResponse(
                status: 200, body: Data(body.utf8), requestedURL: "http://h/dup", effectiveURL: "http://h/dup"))
        fetcher.respond("http://h/dup", dup)
        let message = "duplicate guid \"d1\" at item 2: kept the first occurrence only"
        #expect(stderr == ["Dup <http://h/dup>: " + message])
        #expect(
            log.events.filter { $0.kind == "feed_warning" } == [
                .feedWarning(
                    FeedWarningReport(time: clock, feedURL: "http://h/dup", podcastTitle: "Dup", message: message))
            ])
        #expect(log.kinds == ["feed_warning", "feed_updated", "new_episode"])

        // Still duplicated on the next poll: not reported again.
        scheduler.advance(by: 3600)
        fetcher.respond("http://h/dup", dup)
        #expect(stderr.count == 1)
        #expect(log.events.filter { $0.kind == "feed_warning" }.count == 1)
    }

    @Test func aFeedWithoutATitleIsNullNotItsURL() throws {
        _ = try store.add(url: "http://h/untitled")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/untitled", httpError("http://h/untitled", 503))
        guard case .feedError(let report) = log.events.last else {
            Issue.record("no error")
            return
        }
        #expect(report.podcastTitle == nil)
        #expect(log.events.last?.jsonLine.contains("\"podcast_title\":null") == true)
        let podcast = try #require(daemon.library.snapshots.first)
        #expect(podcast.label == "http://h/untitled")  // "feed failed: http://h/untitled: …", not "URL <URL>"
        #expect(podcast.displayTitle == "http://h/untitled")  // the table may still show the URL
        #expect(try store.feeds().first?.knownTitle == nil)
        #expect(try store.feeds().first?.label == "http://h/untitled")
    }

    @Test func onceKeepsToTheBackoffUnlessForced() throws {
        let failing = try store.add(url: "http://h/failing")
        let healthy = try store.add(url: "http://h/healthy")
        // A 503 with Retry-After an hour away, and a healthy feed whose next poll is also later.
        try store.apply(
            update: FeedUpdate(
                feedID: failing.id, outcome: .failed(FeedFailure(httpStatus: 503, message: "HTTP 503")),
                checkedAt: clock,
                nextPoll: clock.addingTimeInterval(3600)))
        try store.apply(
            update: FeedUpdate(
                feedID: healthy.id, outcome: .notModified, checkedAt: clock, nextPoll: clock.addingTimeInterval(3600)))

        var once = PodcastDaemon<ManualScheduler>.Configuration(once: true)
        var finished: [[Int64]] = []
        var (daemon, _) = makeDaemon(once)
        daemon.onFinished = { finished.append($0) }
        try daemon.start()
        #expect(fetcher.requests.map(\.url) == ["http://h/healthy"])  // cron sets the pace of healthy feeds
        fetcher.respond("http://h/healthy", ok("http://h/healthy", "g1"))
        #expect(finished == [[]])
        daemon.stop()

        once.onceIgnoresBackoff = true  // run --once --force
        (daemon, _) = makeDaemon(once)
        daemon.onFinished = { finished.append($0) }
        try daemon.start()
        #expect(fetcher.requests.map(\.url) == ["http://h/healthy", "http://h/failing", "http://h/healthy"])
    }

    /// A restart keeps a server's `Retry-After` (5 h, beyond the 1 h interval) for a feed backing
    /// off, while a healthy feed's stored next poll (2 h) is still capped at one interval.
    @Test func aRestartKeepsTheBackoffOfAFailingFeed() throws {
        let failing = try store.add(url: "http://h/failing")
        let healthy = try store.add(url: "http://h/healthy")
        try store.apply(
            update: FeedUpdate(
                feedID: failing.id, outcome: .failed(FeedFailure(httpStatus: 503, message: "HTTP 503")),
                checkedAt: clock, nextPoll: clock.addingTimeInterval(18_000)))
        try store.apply(
            update: FeedUpdate(
                feedID: healthy.id, outcome: .notModified, checkedAt: clock, nextPoll: clock.addingTimeInterval(7200)))
        let (daemon, _) = makeDaemon()
        try daemon.start()
        #expect(fetcher.requests.isEmpty)
        scheduler.advance(by: 3599)
        #expect(fetcher.requests.isEmpty)
        scheduler.advance(by: 1)
        #expect(fetcher.requests.map(\.url) == ["http://h/healthy"])  // one interval, not 2 h
        scheduler.advance(by: 14_399)
        #expect(fetcher.requests.map(\.url) == ["http://h/healthy"])  // still in flight
        scheduler.advance(by: 1)
        #expect(fetcher.requests.map(\.url) == ["http://h/healthy", "http://h/failing"])  // at 5 h
        daemon.stop()
    }

    @Test func aRestartShowsTheNewestEpisodesTheStoreHolds() throws {
        _ = try store.add(url: "http://h/a")
        do {
            let (first, _) = makeDaemon()
            try first.start()
            fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))
            first.stop()
        }
        let (daemon, log) = makeDaemon()
        try daemon.start()
        // Known from the store, not announced again: no journal entry, nothing counted as new.
        #expect(Set(daemon.library.newestEpisodes.compactMap(\.guid)) == ["g1", "g2"])
        #expect(daemon.library.totalNew == 0)
        #expect(daemon.library.journal.isEmpty)
        #expect(log.events.isEmpty)
    }

    @Test func permanentRedirectMovesTheFeed() throws {
        let feed = try store.add(url: "http://h/old")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        fetcher.respond(
            "http://h/old", ok("http://h/old", "g1", redirect: PermanentRedirect(url: "https://h/new", status: 301)))
        #expect(log.kinds.first == "feed_moved")
        #expect(
            log.events.first
                == .feedMoved(
                    FeedMoveReport(time: clock, from: "http://h/old", to: "https://h/new", reason: "http-301")))
        #expect(try store.feed(id: feed.id)?.url == "https://h/new")
        #expect(daemon.library.snapshots[0].url == "https://h/new")
        scheduler.advance(by: 3600)
        #expect(fetcher.requests.last?.url == "https://h/new")
    }

    @Test func onceReportsFailedFeeds() throws {
        let a = try store.add(url: "http://h/a")
        let b = try store.add(url: "http://h/b")
        try store.setNextPoll(clock.addingTimeInterval(999), id: a.id)  // --once ignores the schedule
        var finished: [[Int64]] = []
        let (daemon, _) = makeDaemon(.init(once: true))
        daemon.onFinished = { finished.append($0) }
        try daemon.start()
        #expect(fetcher.pendingURLs == ["http://h/a", "http://h/b"])
        fetcher.respond("http://h/b", httpError("http://h/b", 500))
        #expect(finished.isEmpty)
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        #expect(finished == [[b.id]])
        #expect(scheduler.pendingDelays == [])  // nothing scheduled in --once mode, not even a stale budget
    }

    @Test func onceWithNoFeedsFinishesAtOnce() throws {
        var finished: [[Int64]] = []
        let (daemon, _) = makeDaemon(.init(once: true))
        daemon.onFinished = { finished.append($0) }
        try daemon.start()
        #expect(finished == [[]])
    }

    @Test func startResumesTheStoredSchedule() throws {
        let a = try store.add(url: "http://h/a")
        try store.setNextPoll(clock.addingTimeInterval(1200), id: a.id)
        _ = try store.add(url: "http://h/b")
        let (daemon, _) = makeDaemon()
        try daemon.start()
        #expect(fetcher.pendingURLs == ["http://h/b"])
        #expect(daemon.pendingPollDelays == [1200])
        scheduler.advance(by: 1200)
        #expect(fetcher.pendingURLs == ["http://h/b", "http://h/a"])
    }

    @Test func stopAbandonsInFlightFetchesAndWritesNothing() throws {
        let feed = try store.add(url: "http://h/a")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        daemon.stop()
        #expect(fetcher.cancelled == 1)
        #expect(daemon.inFlightCount == 0)
        #expect(log.events.isEmpty)
        #expect(try store.feed(id: feed.id)?.lastCheck == nil)
    }

    @Test func reloadAddsAndDropsFeeds() throws {
        let a = try store.add(url: "http://h/a")
        let (daemon, _) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        let b = try store.add(url: "http://h/b")
        try store.remove(id: a.id)
        try daemon.reload()
        #expect(daemon.library.snapshots.map(\.id) == [b.id])
        #expect(fetcher.pendingURLs == ["http://h/b"])
        scheduler.advance(by: 3600)  // a's timer is stale now
        #expect(fetcher.requests.map(\.url) == ["http://h/a", "http://h/b"])
    }

    @Test func pollAllNowSkipsFeedsInFlight() throws {
        _ = try store.add(url: "http://h/a")
        _ = try store.add(url: "http://h/b")
        let (daemon, _) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        daemon.pollAllNow()
        #expect(fetcher.requests.map(\.url) == ["http://h/a", "http://h/b", "http://h/a"])
        fetcher.respondAll { ok($0, "g1") }
        scheduler.advance(by: 3599)
        #expect(fetcher.requests.count == 3)
        scheduler.advance(by: 1)  // only the fresh timers fire: a and b once each
        #expect(fetcher.requests.count == 5)
    }

    @Test func concurrencyIsLimited() throws {
        for i in 0..<5 { _ = try store.add(url: "http://h/\(i)") }
        let (daemon, _) = makeDaemon(.init(maxConcurrentFetches: 2))
        try daemon.start()
        #expect(fetcher.pendingURLs == ["http://h/0", "http://h/1"])
        #expect(daemon.library.snapshots.map(\.status) == [.polling, .polling, .waiting, .waiting, .waiting])
        fetcher.respond("http://h/0", ok("http://h/0", "g1"))
        #expect(fetcher.pendingURLs == ["http://h/1", "http://h/2"])
        fetcher.respondAll { ok($0, "g1") }
        fetcher.respondAll { ok($0, "g1") }
        #expect(fetcher.requests.count == 5)
        #expect(daemon.completedPolls == 5)
    }

    @Test func hooksRunForNewEpisodes() throws {
        _ = try store.add(url: "http://h/a")
        let (daemon, _) = makeDaemon()
        let out = dir.file("hook.txt")
        let hooks = HookRunner(command: "printf '%s\\n' \"$EPISODE_GUID\" >> \(out)", maxConcurrent: 1)
        daemon.hooks = hooks
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))
        let deadline = Date().addingTimeInterval(10)
        while hooks.runningCount + hooks.queuedCount > 0 && Date() < deadline {
            hooks.reap()
            usleep(1000)
        }
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "g1\ng2\n")
    }
}
