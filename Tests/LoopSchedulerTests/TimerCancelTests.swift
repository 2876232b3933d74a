import Foundation
import Testing

@testable import LoopScheduler

/// Cancelling a timed action takes it out of the loop's timer heap, and the libevent timer goes
/// when nothing live is left (it stayed armed, with the dead entry, until shutdown).
@Suite struct TimerCancelTests {
    @Test func cancellingTheOnlyTimerEmptiesTheHeapAndDisarmsTheLoop() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        let token = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(3_600)), interval: .seconds(60)) {}
        #expect(loop.timers.heapCounts == (live: 1, cancelled: 0))
        #expect(loop.timers.isArmed)
        token.cancel()
        #expect(loop.timers.heapCounts == (live: 0, cancelled: 0))
        #expect(!loop.timers.isArmed)
        token.cancel()  // idempotent
        #expect(loop.timers.heapCounts == (live: 0, cancelled: 0))
    }

    @Test func deadEntriesNeverOutnumberLiveOnesBeyondTheFloor() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        let start = scheduler.now.advanced(by: .seconds(3_600))
        let tokens = (0..<100).map { i in
            scheduler.schedule(after: start.advanced(by: .seconds(i)), interval: .seconds(60)) {}
        }
        for i in 1...50 { tokens[i].cancel() }
        #expect(loop.timers.heapCounts == (live: 50, cancelled: 50))  // 50 dead of 100: kept
        tokens[51].cancel()  // 51 of 100: one compacting pass
        #expect(loop.timers.heapCounts == (live: 49, cancelled: 0))
        for i in 52...80 { tokens[i].cancel() }
        #expect(loop.timers.heapCounts == (live: 20, cancelled: 29))
        // The head goes, and with it the dead entries that were next in line (52...80).
        tokens[0].cancel()
        #expect(loop.timers.heapCounts == (live: 19, cancelled: 0))
        #expect(loop.timers.isArmed)
        for i in 81..<100 { tokens[i].cancel() }
        #expect(loop.timers.heapCounts == (live: 0, cancelled: 0))
        #expect(!loop.timers.isArmed)
    }

    @Test func liveEntriesStillFireInOrderAfterCancels() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        let scheduler = LoopScheduler(loop: loop)
        let due = scheduler.now
        var fired: [Int] = []
        var tokens: [Cancellable] = []
        for i in 0..<80 {
            tokens.append(scheduler.schedule(after: due, interval: .seconds(3_600)) { fired.append(i) })
        }
        for i in stride(from: 1, to: 80, by: 2) { tokens[i].cancel() }  // 40 dead of 80: kept
        #expect(loop.timers.heapCounts == (live: 40, cancelled: 40))
        tokens[2].cancel()  // 41 of 80: compacted
        #expect(loop.timers.heapCounts == (live: 39, cancelled: 0))
        for i in stride(from: 6, to: 80, by: 4) { tokens[i].cancel() }
        #expect(loop.timers.heapCounts == (live: 20, cancelled: 19))
        for _ in 0..<5 where fired.count < 20 { loop.runOnce(blocking: false) }
        #expect(fired == Array(stride(from: 0, to: 80, by: 4)))
        withExtendedLifetime(tokens) {}
    }
}
