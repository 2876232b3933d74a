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
    /// thread answers a signal while it runs. Asserted by order, not by time: the signal's
    /// handler runs before the parse returns (the parse waits for the handler to release it;
    /// with parsing on the loop thread the handler could only run after the parse gave up).
    func testLoopAnswersASignalWhileAParseRuns() throws {
        let dir = TemporaryDirectory("pool")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        _ = try store.add(url: "http://h/slow")
        let loop = try EventLoop()
        let pool = WorkerPool(loop: loop, threads: 2)
        let release = DispatchSemaphore(value: 0)
        let steps = Mutex<[String]>([])
        let fetcher = ScriptedFetcher()
        fetcher.autoRespond = { ok($0.url, "g1") }
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher,
            parse: { response in
                // The signal arrives while the parse runs; the parse then waits for the loop's
                // handler (bounded, so that a regression fails instead of hanging).
                steps.withLock { $0.append("parse started") }
                kill(getpid(), SIGUSR2)
                let released = release.wait(timeout: .now() + 10) == .success
                steps.withLock { $0.append(released ? "parse released" : "parse gave up") }
                return try parseGuids(response)
            },
            offLoop: pool, scheduler: LoopScheduler(loop: loop), configuration: .init(once: true), random: noJitter)
        var loopThreadAnswered = false
        let loopThread = pthread_self()
        let signal = try loop.onSignal(SIGUSR2) {
            steps.withLock { $0.append("signal answered") }
            loopThreadAnswered = pthread_equal(pthread_self(), loopThread) != 0
            release.signal()
        }
        daemon.onFinished = { _ in loop.stop() }
        let watchdog = loop.scheduleTimer(after: .seconds(20)) { loop.stop() }
        // The poll starts from the loop, as in `run`.
        let begin = loop.scheduleTimer(after: .milliseconds(0)) { try? daemon.start() }
        try loop.run()
        daemon.stop()
        begin.cancel()
        watchdog.cancel()
        signal.cancel()
        XCTAssertEqual(steps.withLock { $0 }, ["parse started", "signal answered", "parse released"])
        XCTAssertTrue(loopThreadAnswered)
    }
}
