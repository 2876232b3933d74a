import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Testing

@testable import PodcastEngine
@testable import PodcastFeeds
@testable import PodcastStore

/// An executor whose jobs run when the test says, even after their token was cancelled (a
/// worker cannot be interrupted: the parse runs on, and only the parser can stop itself).
final class UninterruptibleExecutor: OffLoopExecutor {
    private(set) var started: [() -> Void] = []
    private(set) var work: [() -> Void] = []

    func submit<T: Sendable>(
        _ work: @escaping @Sendable () -> T, started: @escaping () -> Void, completion: @escaping (T) -> Void
    ) -> Cancellable {
        self.started.append(started)
        self.work.append { _ = work() }
        return AnyCancellable {}
    }
}

/// The daemon cancels the token of a parse whose budget ran out.
@Suite struct ParseBudgetStopTests {
    let dir = TemporaryDirectory("budget-stop")
    let store: FeedStore
    let scheduler = ManualScheduler()
    let fetcher = ScriptedFetcher()
    let executor = UninterruptibleExecutor()

    init() throws {
        store = try FeedStore(path: dir.file("state.sqlite"))
    }

    final class Seen: @unchecked Sendable { var cancelled: [Bool?] = [] }

    func makeDaemon(_ seen: Seen) -> PodcastDaemon<ManualScheduler> {
        var configuration = PodcastDaemon<ManualScheduler>.Configuration()
        configuration.parseBudget = 10
        return PodcastDaemon(
            store: store, fetcher: fetcher,
            parse: { response in
                seen.cancelled.append(ParseCancellation.current?.isCancelled)
                return try parseGuids(response)
            }, offLoop: executor, scheduler: scheduler, configuration: configuration, random: noJitter)
    }

    @Test func theBudgetCancelsTheParsesToken() throws {
        _ = try store.add(url: "http://h/a")
        let seen = Seen()
        let daemon = makeDaemon(seen)
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        executor.started[0]()
        scheduler.advance(by: 10)
        executor.work[0]()  // the worker runs the parse only now: it sees the stop
        #expect(seen.cancelled == [true])
    }

    @Test func aParseWithinBudgetSeesALiveToken() throws {
        _ = try store.add(url: "http://h/a")
        let seen = Seen()
        let daemon = makeDaemon(seen)
        try daemon.start()
        fetcher.respond("http://h/a", ok("http://h/a", "g1"))
        executor.started[0]()
        scheduler.advance(by: 9.9)
        executor.work[0]()
        #expect(seen.cancelled == [false])
    }
}
