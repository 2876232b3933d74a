import Foundation
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore

/// After a restart the live table shows each feed with the status the store keeps, as `list` does.
@Suite struct RestartStatusTests {
    let dir = TemporaryDirectory("restart-status")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()
    let clock = Date(timeIntervalSince1970: 1_000_000)

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    /// A daemon as `PodcastDaemonTests` makes it.
    func makeDaemon() -> (PodcastDaemon<ManualScheduler>, Void) {
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            now: { [clock, scheduler] in clock.addingTimeInterval(Double(scheduler.now.nanoseconds) / 1e9) },
            random: noJitter)
        return (daemon, ())
    }

    @Test func aRestartShowsTheStoredStatusLikeList() throws {
        _ = try store.add(url: "http://h/ok")
        _ = try store.add(url: "http://h/down")
        _ = try store.add(url: "http://h/missing")
        _ = try store.add(url: "http://h/gone")
        _ = try store.add(url: "http://h/new")
        do {
            let (first, _) = makeDaemon()
            try first.start()
            fetcher.respond("http://h/ok", ok("http://h/ok", "g1"))
            fetcher.respond("http://h/down", httpError("http://h/down", 503))
            fetcher.respond("http://h/missing", httpError("http://h/missing", 404))
            fetcher.respond("http://h/gone", httpError("http://h/gone", 410))
            first.stop()
        }
        let (daemon, _) = makeDaemon()
        try daemon.start()
        let shown = daemon.library.snapshots
        // The never-polled feed is due at once, so it is already in flight.
        #expect(shown.map(\.status) == [.ok, .backingOff, .failing, .disabled, .polling])
        #expect(shown.dropLast().map(\.status.rawValue) == (try store.feeds().dropLast().map(\.health.rawValue)))
        #expect(shown.map { $0.lastError != nil } == [false, true, true, true, false])
        let header = TerminalRenderer(width: 80).render(podcasts: shown, newest: [], totalNew: 0).split(separator: "\n")
            .first
        #expect(header == "podcast-watch: 5 feeds, 0 new, 1 backing-off, 1 failing, 1 disabled")
    }
}
