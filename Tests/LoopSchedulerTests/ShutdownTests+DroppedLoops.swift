import Foundation
import LoopTestSupport
import Testing

@testable import LoopScheduler

/// A loop dropped by its owner while its own pending work refers to it (a job capturing a source,
/// a timed action capturing the scheduler, a job holding a repeating timer's token) stays alive
/// with its `event_base` and descriptors: ARC cannot free a cycle through the loop's queues, and
/// the loop follows the explicit-shutdown model. Debug builds name such loops by where they were
/// made (`LoopLeakCheck`), at exit and while the process runs.
///
/// Part of the serialized `ShutdownTests`, whose descriptor counts must not see these loops.
extension ShutdownTests {
    /// Makes a loop at a known line, gives it the pending work of the reported leak, drops it.
    fileprivate static func makeAndDropALoopWithPendingWork() throws -> (site: String, freed: Bool) {
        weak var witness: EventLoop?
        let site = try { () throws -> String in
            let loop = try EventLoop()
            let site = "\(#fileID):\(#line - 1)"
            witness = loop
            let scheduler = LoopScheduler(loop: loop)
            let source = loop.makeEventSource { _ in }
            loop.execute { source.signal() }
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(60))) { _ = scheduler }
            let repeating = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(60)), interval: 1) {}
            loop.enqueue { repeating.cancel() }
            return site
        }()
        return (site, witness == nil)
    }

    @Test func loopsDroppedWithPendingWorkAreNamedWhereTheyWereMade() throws {
        let before = ShutdownTests.openDescriptorCount()
        var site = ""
        var freed = 0
        for _ in 0..<300 {
            let made = try Self.makeAndDropALoopWithPendingWork()
            site = made.site
            if made.freed { freed += 1 }
        }
        #expect(freed == 0)  // the cycle: what the diagnostic is for
        #if DEBUG
        let ours = LoopLeakCheck.shared.suspects().first { $0.site == site }
        #expect(ours == LoopLeakCheck.Suspects(site: site, count: 300))
        let report = try #require(LoopLeakCheck.shared.report(atExit: true))
        #expect(report.contains("  \(site) (300)\n"))
        #expect(report.contains("call shutdown()"))
        // Shut down through the registry (nothing else reaches them any more), every loop is
        // freed with its descriptors, and none is reported.
        weak var sample: EventLoop?
        do {
            let leaked = LoopLeakCheck.shared.suspectLoops(madeAt: site)
            #expect(leaked.count == 300)
            sample = leaked.first
            for loop in leaked { loop.shutdown() }
        }
        #expect(sample == nil)
        #expect(LoopLeakCheck.shared.suspects().first { $0.site == site } == nil)
        // Suites run in parallel and open descriptors of their own: compared with slack (the
        // leak holds 5 per loop, 1,500 here).
        #expect(ShutdownTests.openDescriptorCount() - before < 100)
        #endif
    }

    /// Only loops that look dropped are named: not one that is shut down, not one that holds no
    /// pending work (freed normally when dropped), not one inside `runOnce`.
    @Test func loopsInUseOrWithoutPendingWorkAreNotNamed() throws {
        #if DEBUG
        let quiet = try EventLoop()
        let quietSite = "\(#fileID):\(#line - 1)"
        let shut = try EventLoop()
        let shutSite = "\(#fileID):\(#line - 1)"
        let running = try EventLoop()
        let runningSite = "\(#fileID):\(#line - 1)"
        defer {
            quiet.shutdown()
            running.shutdown()
        }
        let scheduler = LoopScheduler(loop: shut)
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(60))) {}
        shut.shutdown()
        let sites = { Set(LoopLeakCheck.shared.suspects().map(\.site)) }
        #expect(sites().isDisjoint(with: [quietSite, shutSite, runningSite]))
        var seenWhileRunning: Set<String> = []
        running.enqueue { seenWhileRunning = sites() }
        running.enqueue {}  // still queued while the first job looks
        running.runOnce(blocking: false)
        #expect(!seenWhileRunning.contains(runningSite))
        // Pending work makes the idle one a suspect, and draining it clears it again.
        quiet.execute {}
        #expect(sites().contains(quietSite))
        quiet.runOnce(blocking: false)
        #expect(!sites().contains(quietSite))
        #endif
    }
}
