import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import XCTest

@testable import PodcastCommandLine
@testable import PodcastEngine
@testable import PodcastStore

/// Coalescing in the real daemon: however many feeds finish in one loop iteration, the terminal
/// view redraws once and the JSON-lines view writes once.
final class CoalescingTests: XCTestCase {
    func testFiftyFeedsCompletingInOneIterationGiveOneRedraw() throws {
        let dir = TemporaryDirectory("coalesce")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        for i in 0..<50 { try store.add(url: "http://h/\(i)") }
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        let fetcher = ScriptedFetcher()
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: parseGuids, scheduler: scheduler,
            configuration: .init(maxConcurrentFetches: 50, maxFetchesPerHost: 50), random: noJitter)
        var frames: [String] = []
        var chunks: [String] = []
        let terminal = TerminalView(
            library: daemon.library, scheduler: scheduler, renderer: TerminalRenderer(ansi: true)
        ) { frames.append($0) }
        let lines = JSONLinesView(library: daemon.library, scheduler: scheduler) { chunks.append($0) }
        XCTAssertEqual(terminal.updateCount, 1)  // the initial draw
        try daemon.start()
        XCTAssertEqual(fetcher.pendingURLs.count, 50)
        XCTAssertTrue(loop.runOnce(blocking: false))  // flushes the "polling" states: one redraw
        XCTAssertEqual(terminal.updateCount, 2)
        XCTAssertEqual(lines.updateCount, 2)

        let timer = loop.scheduleTimer(after: .nanoseconds(0)) { fetcher.respondAll { ok($0, "g1,g2") } }
        XCTAssertTrue(loop.runOnce(blocking: true))
        withExtendedLifetime(timer) {}
        XCTAssertEqual(daemon.completedPolls, 50)
        XCTAssertEqual(terminal.updateCount, 3)  // exactly one more for 50 completions
        XCTAssertEqual(lines.updateCount, 3)
        XCTAssertEqual(frames.count, 3)
        XCTAssertTrue(
            frames.last!.hasPrefix(TerminalRenderer.clearScreen + "\u{1B}[2Kpodcast-watch: 50 feeds, 100 new\n"))
        XCTAssertEqual(chunks.count, 1)  // one write carrying every event of the iteration
        XCTAssertEqual(chunks[0].split(separator: "\n").count, 150)  // 50 feed_updated + 100 new_episode

        XCTAssertTrue(loop.runOnce(blocking: false))  // nothing changed: no redraw
        XCTAssertEqual(terminal.updateCount, 3)
    }

    /// The same with the real HTTPFetcher (libcurl multi on the loop) against the loopback
    /// server. Real sockets cannot be made to complete in one iteration, so the claim checked
    /// is the general one, with iterations counted by `EventLoop.completedFlushCount`: exactly
    /// one redraw per flush pass in which the library changed (the first, showing the
    /// "polling" states, and each in which at least one of the 50 polls completed), never one
    /// per completion.
    func testFiftyRealFetchesGiveOneRedrawPerIterationWithCompletions() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let dir = TemporaryDirectory("coalesce-http")
        let store = try FeedStore(path: dir.file("state.sqlite"))
        for i in 0..<50 {
            server.route(
                "/f\(i)",
                .ok(
                    "<rss version=\"2.0\"><channel><title>F\(i)</title><item><guid>f\(i)-1</guid></item><item><guid>f\(i)-2</guid></item></channel></rss>"
                ))
            try store.add(url: server.url("/f\(i)"))
        }
        let loop = try EventLoop()
        let scheduler = LoopScheduler(loop: loop)
        let fetcher = HTTPFetcher(eventBase: loop.base)
        let daemon = PodcastDaemon(
            store: store, fetcher: fetcher, parse: FeedParsing.parse, scheduler: scheduler,
            configuration: .init(once: true, maxConcurrentFetches: 50), random: noJitter)
        var finished = false
        daemon.onFinished = { failed in
            XCTAssertEqual(failed, [])
            finished = true
        }
        // The flush pass each completion falls in: passes completed so far when it happened.
        var passesWithChanges = Set<Int>()
        var completions = 0
        daemon.onEvent = { [loop] event in
            if case .feedUpdated = event {
                completions += 1
                passesWithChanges.insert(loop.completedFlushCount)
            }
        }
        var frames = 0
        let terminal = TerminalView(
            library: daemon.library, scheduler: scheduler, renderer: TerminalRenderer(ansi: true)
        ) { _ in frames += 1 }
        XCTAssertEqual(terminal.updateCount, 1)  // the initial draw
        let flushesAtStart = loop.completedFlushCount
        try daemon.start()  // every feed now "polling": a change for the next pass
        passesWithChanges.insert(flushesAtStart)

        let deadline = Date().addingTimeInterval(20)
        while !finished && Date() < deadline {
            XCTAssertTrue(loop.runOnce(blocking: true))
        }
        XCTAssertTrue(finished, "the 50 polls did not finish")
        XCTAssertEqual(completions, 50)
        XCTAssertEqual(daemon.completedPolls, 50)
        XCTAssertEqual(terminal.updateCount - 1, passesWithChanges.count)
        XCTAssertLessThanOrEqual(terminal.updateCount - 1, loop.completedFlushCount - flushesAtStart)
        XCTAssertEqual(frames, terminal.updateCount)
        XCTAssertEqual(daemon.library.totalNew, 100)
        XCTAssertTrue(loop.runOnce(blocking: false))  // nothing changed: no redraw
        XCTAssertEqual(terminal.updateCount - 1, passesWithChanges.count)
        fetcher.cancelAll()
    }
}
