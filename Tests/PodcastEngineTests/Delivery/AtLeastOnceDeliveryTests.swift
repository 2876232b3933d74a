import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastStore

/// The daemon's side of at-least-once announcements: it confirms delivery only after every
/// output has the announcement, and re-emits what a dead run left pending before polling.
@Suite struct AtLeastOnceDeliveryTests {
    let dir = TemporaryDirectory("delivery")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()
    let clock = Date(timeIntervalSince1970: 1_000_000)

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    func makeDaemon(_ configuration: PodcastDaemon<ManualScheduler>.Configuration = .init()) -> (
        PodcastDaemon<ManualScheduler>, PodcastDaemonTests.EventLog
    ) {
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler, configuration: configuration,
            now: { [clock, scheduler] in clock.addingTimeInterval(Double(scheduler.now.nanoseconds) / 1e9) },
            random: noJitter)
        let log = PodcastDaemonTests.EventLog()
        daemon.onEvent = { log.events.append($0) }
        return (daemon, log)
    }

    func pendingGuids() throws -> [String?] { try store.pendingAnnouncements().map(\.guid) }

    @Test func deliveredOnceOnEventReturnedWithoutAView() throws {
        _ = try store.add(url: "http://h/a")
        let (daemon, log) = makeDaemon()
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))
        #expect(log.newGuids == ["g1", "g2"])
        #expect(try pendingGuids() == [])
        #expect(daemon.undeliveredCount == 0)
    }

    @Test func viewConfirmationClearsOnlyWhatItWrote() throws {
        _ = try store.add(url: "http://h/a")
        _ = try store.add(url: "http://h/b")
        let (daemon, _) = makeDaemon(.init(awaitsOutputConfirmation: true))
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))
        // Journal: 1 feed_updated(a), 2 g1, 3 g2.
        #expect(daemon.library.journal.map(\.sequence) == [1, 2, 3])
        #expect(try pendingGuids() == ["g1", "g2"])
        #expect(daemon.undeliveredCount == 2)
        fetcher.respond("http://h/b", ok("http://h/b", "g3"))  // 4 feed_updated(b), 5 g3
        daemon.outputDelivered(throughSequence: 2)
        #expect(try pendingGuids() == ["g2", "g3"])
        daemon.outputDelivered(throughSequence: 5)
        #expect(try pendingGuids() == [])
        #expect(daemon.undeliveredCount == 0)
    }

    @Test func hookMustStartToo() throws {
        _ = try store.add(url: "http://h/a")
        let (daemon, _) = makeDaemon(.init(awaitsOutputConfirmation: true))
        let hooks = HookRunner(command: "true", maxConcurrent: 1)
        daemon.hooks = hooks
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2"))  // g1's hook runs, g2's waits
        #expect(hooks.runningCount == 1)
        #expect(hooks.queuedCount == 1)
        daemon.outputDelivered(throughSequence: 3)
        #expect(try pendingGuids() == ["g2"])  // written, but its hook has not started
        daemon.stop()  // drops the queued hook: g2 stays pending for the next start
        #expect(try pendingGuids() == ["g2"])
        let deadline = Date().addingTimeInterval(10)
        while hooks.runningCount > 0 && Date() < deadline {
            hooks.reap()
            usleep(1000)
        }
    }

    @Test func startReEmitsPendingAnnouncementsBeforePolling() throws {
        let a = try store.add(url: "http://h/a")
        // A run that committed a poll and died before any output.
        let (first, firstLog) = makeDaemon(.init(awaitsOutputConfirmation: true))
        try first.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2,g3,g4"))
        #expect(firstLog.newGuids == ["g2", "g3", "g4"])
        #expect(try pendingGuids() == ["g2", "g3", "g4"])
        first.stop()

        let (second, log) = makeDaemon(.init(awaitsOutputConfirmation: true))
        try second.start()
        #expect(log.kinds == ["new_episode", "new_episode", "new_episode"])
        #expect(log.newGuids == ["g2", "g3", "g4"])
        guard case .newEpisode(let replayed) = log.events.first else {
            Issue.record("no announcement")
            return
        }
        #expect(
            replayed
                == EpisodeAnnouncement(
                    time: clock, feedURL: "http://h/a", podcastTitle: "Show of http://h/a", title: "Episode g2",
                    guid: "g2",
                    url: "http://media/g2.mp3", published: Date(timeIntervalSince1970: 2 * 86_400),
                    mimeType: "audio/mpeg", length: 100))
        #expect(second.library.podcast(id: a.id)?.newCount == 3)
        #expect(fetcher.pendingURLs == [])  // its next poll is an hour after the first one
        second.outputDelivered(throughSequence: 3)
        #expect(try pendingGuids() == [])
        scheduler.advance(by: 3600)
        fetcher.respond("http://h/a", ok("http://h/a", "g1,g2,g3,g4"))
        #expect(log.newGuids == ["g2", "g3", "g4"])  // nothing new on the poll itself

        let (third, thirdLog) = makeDaemon()
        try third.start()
        #expect(thirdLog.events.isEmpty)  // delivered: not repeated again
    }
}
