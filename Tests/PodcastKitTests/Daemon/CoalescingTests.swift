import Foundation
import LoopScheduler
import XCTest
@testable import PodcastKit

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
            configuration: .init(maxConcurrentFetches: 50), random: noJitter)
        var frames: [String] = []
        var chunks: [String] = []
        let terminal = TerminalView(library: daemon.library, scheduler: scheduler, renderer: TerminalRenderer(ansi: true)) { frames.append($0) }
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
        XCTAssertTrue(frames.last!.hasPrefix(TerminalRenderer.clearScreen + "podcast-watch: 50 feeds, 100 new\n"))
        XCTAssertEqual(chunks.count, 1)  // one write carrying every event of the iteration
        XCTAssertEqual(chunks[0].split(separator: "\n").count, 150)  // 50 feed_updated + 100 new_episode

        XCTAssertTrue(loop.runOnce(blocking: false))  // nothing changed: no redraw
        XCTAssertEqual(terminal.updateCount, 3)
    }
}
