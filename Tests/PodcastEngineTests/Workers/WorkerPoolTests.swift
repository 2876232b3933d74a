import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import Synchronization
import XCTest

@testable import PodcastEngine
@testable import PodcastStore

/// Parsing and file reads run on a worker pool; the loop thread keeps answering.
/// XCTest: the loop runs on the test's thread.
final class WorkerPoolTests: XCTestCase {
    func testWorkRunsOffTheLoopThreadAndResultsComeBackOnIt() throws {
        let loop = try EventLoop()
        let pool = WorkerPool(loop: loop, threads: 2)
        XCTAssertEqual(pool.threadCount, 2)
        let loopThread = pthread_self()
        var order: [String] = []
        var workerThreads: [Bool] = []
        let workers = Mutex<[pthread_t]>([])
        for i in 0..<4 {
            _ = pool.submit(
                { () -> Int in
                    workers.withLock { $0.append(pthread_self()) }
                    return i * 10
                },
                started: {
                    workerThreads.append(pthread_equal(pthread_self(), loopThread) != 0)
                    order.append("started \(i)")
                },
                completion: { value in
                    workerThreads.append(pthread_equal(pthread_self(), loopThread) != 0)
                    order.append("done \(value)")
                    if order.count == 8 { loop.stop() }
                })
        }
        let watchdog = loop.scheduleTimer(after: .seconds(20)) { loop.stop() }
        try loop.run()
        watchdog.cancel()
        withExtendedLifetime(pool) {}
        XCTAssertEqual(order.count, 8)
        for i in 0..<4 {
            let s = try XCTUnwrap(order.firstIndex(of: "started \(i)"))
            let d = try XCTUnwrap(order.firstIndex(of: "done \(i * 10)"))
            XCTAssertLessThan(s, d)
        }
        XCTAssertEqual(workerThreads, Array(repeating: true, count: 8), "callbacks run on the loop thread")
        XCTAssertTrue(workers.withLock { $0.allSatisfy { pthread_equal($0, loopThread) == 0 } }, "work runs off it")
    }

    func testCancelledJobDeliversNothing() throws {
        let loop = try EventLoop()
        let pool = WorkerPool(loop: loop, threads: 1)
        let gate = DispatchSemaphore(value: 0)
        var delivered: [Int] = []
        let first = pool.submit(
            {
                gate.wait()
                return 1
            }, completion: { delivered.append($0) })
        let second = pool.submit({ 2 }, completion: { delivered.append($0) })
        first.cancel()
        _ = pool.submit(
            { 3 },
            completion: {
                delivered.append($0)
                loop.stop()
            })
        gate.signal()
        let watchdog = loop.scheduleTimer(after: .seconds(20)) { loop.stop() }
        try loop.run()
        watchdog.cancel()
        XCTAssertEqual(delivered, [2, 3])
        withExtendedLifetime((pool, second)) {}
    }

    /// A parse that never ends (here: until the test lets it go) holds one worker; the loop
    /// thread answers a signal within 100 ms all the while. With parsing on the loop thread the
    /// signal waited for the parse (2 s here, 36 s for the hostile feed of the issue).
    func testLoopAnswersASignalWithin100msWhileAParseRuns() throws {
        let dir = TemporaryDirectory("pool")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        _ = try store.add(url: "http://h/slow")
        let loop = try EventLoop()
        let pool = WorkerPool(loop: loop, threads: 2)
        let release = DispatchSemaphore(value: 0)
        let raisedAt = Mutex<ContinuousClock.Instant?>(nil)
        let fetcher = ScriptedFetcher()
        fetcher.autoRespond = { ok($0.url, "g1") }
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher,
            parse: { response in
                // The signal arrives while the parse runs, which then takes 2 s (a stuck parse,
                // bounded so that a regression fails instead of hanging).
                raisedAt.withLock { $0 = ContinuousClock.now }
                kill(getpid(), SIGUSR2)
                _ = release.wait(timeout: .now() + 2)
                return try parseGuids(response)
            },
            offLoop: pool, scheduler: LoopScheduler(loop: loop), configuration: .init(once: true), random: noJitter)
        var answeredAfter: Duration?
        let signal = try loop.onSignal(SIGUSR2) {
            if let raised = raisedAt.withLock({ $0 }) { answeredAfter = ContinuousClock.now - raised }
            loop.stop()
        }
        let watchdog = loop.scheduleTimer(after: .seconds(20)) { loop.stop() }
        // The poll starts from the loop, as in `run`.
        let begin = loop.scheduleTimer(after: .milliseconds(0)) { try? daemon.start() }
        try loop.run()
        release.signal()
        daemon.stop()
        begin.cancel()
        watchdog.cancel()
        signal.cancel()
        let latency = try XCTUnwrap(answeredAfter, "the signal was never answered")
        XCTAssertLessThan(latency, .milliseconds(100))
    }
}
