import Foundation
import LoopScheduler
import PodcastDaemonTestSupport
import PodcastTestSupport
import ViewModelKit
import XCTest

@testable import PodcastCommandLine
@testable import PodcastEngine

/// The coalescing promise under libcurl's progress callbacks: many callbacks (from many
/// downloads) in one loop iteration, exactly one redraw of the terminal view for it; and over a
/// 30-second trickle, one redraw per iteration in which the model changed, never more.
final class DownloadCoalescingTests: XCTestCase {
    /// Counts per iteration: the model's changes, the view's redraws and the callbacks.
    private final class Counter {
        var changes = 0
        var token: AnyCancellable?
        init(_ model: DownloadsViewModel) {
            token = model.objectWillChange.sink { [unowned self] _ in changes += 1 }
        }
    }

    private func view(_ h: DownloadHarness, frames: @escaping (String) -> Void) -> TerminalView<LoopScheduler> {
        let library = LibraryViewModel()
        return TerminalView(
            library: library, scheduler: LoopScheduler(loop: h.loop),
            renderer: TerminalRenderer(width: 100, ansi: true), write: frames, downloads: h.queue.model)
    }

    func testManyProgressCallbacksInOneIterationGiveExactlyOneRedraw() throws {
        let h = try DownloadHarness {
            $0.maxConcurrent = 20
            $0.maxPerHost = 20
        }
        let source = DownloadHarness.bytes(2_000_000, seed: 4)
        h.server.route("/e.mp3") { request in
            var r = TestHTTPServer.Response.file(source, for: request, etag: "\"c\"")
            r.stream = .init(pieceBytes: 20_000, interval: 0.005)
            return r
        }
        var ids: [Int64] = []
        for i in 0..<20 { ids.append(try h.announce(title: "E\(i)", path: "/e.mp3?n=\(i)")) }
        var frames = 0
        let terminal = view(h) { _ in frames += 1 }
        try h.queue.start()
        // Until every download has received data, so each has its row.
        h.run(until: { h.queue.model.active.count == 20 && h.queue.model.active.allSatisfy { $0.bytes > 0 } })
        XCTAssertEqual(h.queue.activeCount, 20)

        // Let the server send three more pieces per download while the loop does not run (the
        // event itself, bounded by a watchdog), then one iteration.
        let piecesBefore = h.server.streamedPieces
        let deadline = Date().addingTimeInterval(20)
        while h.server.streamedPieces < piecesBefore + 60 && Date() < deadline { usleep(1_000) }
        let callbacksBefore = h.queue.totalProgressCallbacks
        let redrawsBefore = terminal.updateCount
        XCTAssertTrue(h.loop.runOnce(blocking: false))
        let callbacks = h.queue.totalProgressCallbacks - callbacksBefore
        XCTAssertGreaterThan(callbacks, 20, "progress and data callbacks of 20 transfers in one iteration")
        XCTAssertEqual(terminal.updateCount - redrawsBefore, 1, "one redraw for \(callbacks) callbacks")
        XCTAssertEqual(frames, terminal.updateCount)

        h.run(until: { ids.allSatisfy { h.state($0) == .done } })
        for id in ids { XCTAssertEqual(h.contents(h.record(id)!.path), source) }
    }

    /// A 30-second trickle (300 pieces of 4,000 bytes, 100 ms apart) as the queue sees it: the
    /// loopback server sends the pieces 3 ms apart, and the queue's clock is virtual, 100 ms per
    /// 4,000 bytes received, so its once-a-second progress pacing sees thirty seconds in about
    /// one. Counted, not timed: one redraw in each iteration that changed the model and none in
    /// the others, progress events paced by the virtual clock, and a pipe pinged from another
    /// thread answered all along the transfer.
    func testThirtySecondTrickleRedrawsOncePerChangedIterationAndStaysResponsive() throws {
        let h = try DownloadHarness { $0.stallSeconds = 20 }
        let source = DownloadHarness.bytes(300 * 4_000, seed: 6)
        h.server.route("/slow.mp3") { request in
            var r = TestHTTPServer.Response.file(source, for: request, etag: "\"s\"")
            r.stream = .init(pieceBytes: 4_000, interval: 0.003)  // 300 pieces
            return r
        }
        let origin = MonotonicInstant.now()
        // Virtual time: 100 ms per 4,000 bytes received (the model holds the last figure).
        h.makeQueue(clock: { [unowned h] in
            let bytes = h.queue?.model.active.first?.bytes ?? 0
            return origin.advanced(by: .milliseconds(Int(bytes / 40)))
        })
        let id = try h.announce(title: "Slow", path: "/slow.mp3")
        let counter = Counter(h.queue.model)
        var lastFrame = ""
        let terminal = view(h) { lastFrame = $0 }
        // Changes made between iterations (start() queues and begins the download) are drawn
        // by the next one: count from here.
        var lastChanges = counter.changes
        try h.queue.start()

        // A pipe pinged from another thread: each ping is written once the loop answered the
        // previous one, so the count of answers shows the loop kept turning during the transfer.
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        let answered = DispatchSemaphore(value: 0)
        var answers = 0
        let watch = h.loop.watch(fd: fds[0], events: .read) { _ in
            var byte: UInt8 = 0
            while read(fds[0], &byte, 1) == 1 {
                answers += 1
                answered.signal()
            }
        }
        let stop = Shared(false)
        let writeEnd = fds[1]
        let writer = Thread {
            while !stop.value {
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
                // The answer (bounded: the test's end stops the pinging).
                _ = answered.wait(timeout: .now() + 5)
                usleep(2_000)
            }
        }
        writer.start()

        var iterations = 0
        var changedIterations = 0
        var answersDuringTransfer = 0
        var mismatches: [String] = []
        var expired = false
        let watchdog = h.loop.scheduleTimer(after: .seconds(60)) { expired = true }
        while h.state(id) != .done && !expired {
            let redraws = terminal.updateCount
            h.loop.runOnce(blocking: true)
            iterations += 1
            let changed = counter.changes > lastChanges
            lastChanges = counter.changes
            if changed { changedIterations += 1 }
            let drawn = terminal.updateCount - redraws
            if drawn != (changed ? 1 : 0) { mismatches.append("iteration \(iterations): \(drawn) redraws") }
            if h.state(id) != .done { answersDuringTransfer = answers }
        }
        watchdog.cancel()
        stop.value = true
        answered.signal()
        withExtendedLifetime(watch) {}

        XCTAssertEqual(h.state(id), .done)
        XCTAssertEqual(h.contents(h.record(id)!.path), source)
        XCTAssertEqual(mismatches, [], "exactly one redraw in each iteration that changed the model, none otherwise")
        XCTAssertGreaterThan(changedIterations, 30)
        XCTAssertGreaterThan(h.queue.totalProgressCallbacks, changedIterations / 2)
        // Progress events: at most one a (virtual) second, so at most 31 over the 30 s.
        let progress = h.events.filter { $0.kind == .progress }
        XCTAssertGreaterThanOrEqual(progress.count, 10)
        XCTAssertLessThanOrEqual(progress.count, 31)
        XCTAssertGreaterThan(answersDuringTransfer, 10, "the loop answered the pipe while the transfer ran")
        XCTAssertTrue(lastFrame.contains("1 done"))
    }
}
