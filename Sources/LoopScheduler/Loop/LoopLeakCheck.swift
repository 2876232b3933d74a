#if canImport(Glibc)
import Glibc
#endif

/// Debug builds: names the loops that were never shut down and still hold pending work, by where
/// they were made, since such a loop may have been dropped by its owner and kept alive by that
/// work.
///
/// Why a diagnostic and not a fix: pending work that refers to its loop (a job capturing a
/// `LoopEventSource`, a timed action capturing its `LoopScheduler`, a delivery an operator
/// scheduled and a cancelled subscription left behind) is a reference cycle through the loop's
/// own queues, and ARC cannot tell those references from the owner's. Freeing the loop when its
/// owner lets go would need schedulers, sources and registrations that do not keep their loop
/// alive, so a loop could be freed while a scheduler still uses it (the optimiser may end a
/// local `let loop` at its last use). So the loop follows SwiftNIO's explicit-shutdown model:
/// `EventLoop.shutdown()` releases everything, and this check says where a forgotten loop came
/// from (see docs/DESIGN-NOTES.md, "A dropped loop").
///
/// A *suspect* is a loop, not `EventLoop.main`, that is alive, not shut down, not inside
/// `run()`/`runOnce`, and holds queued jobs or timed actions. Debug builds print the suspects,
/// grouped by creation site, to standard error when the process exits, and when their number
/// reaches 64, 128, 256, … while it runs. Release builds record nothing.
///
/// Threads: every method from any thread; the registry lock is never held while a loop is
/// examined or released.
final class LoopLeakCheck: @unchecked Sendable {
    static let shared = LoopLeakCheck()

    /// Suspects made at one place.
    struct Suspects: Equatable {
        /// `#fileID:#line` of the `EventLoop` initialiser call.
        let site: String
        let count: Int
    }

    private struct Entry {
        weak var loop: EventLoop?
        let site: String
    }

    private let lock = Lock()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var exitHookInstalled = false
    /// The suspect count at which the next warning is printed while the process runs.
    private var nextWarningAt = 64

    /// Records `loop`, made at `site`. Debug builds only (a no-op otherwise).
    func register(_ loop: EventLoop, site: @autoclosure () -> String) {
        #if DEBUG
        let (installHook, check) = lock.withLock { () -> (Bool, Bool) in
            entries[ObjectIdentifier(loop)] = Entry(loop: loop, site: site())
            defer { exitHookInstalled = true }
            return (!exitHookInstalled, entries.count >= nextWarningAt)
        }
        if installHook { atexit { LoopLeakCheck.shared.printSuspects(atExit: true) } }
        if check { warnWhileRunning() }
        #endif
    }

    /// Forgets a loop that is being freed (its deinit). Any thread.
    func unregister(_ id: ObjectIdentifier) {
        #if DEBUG
        lock.withLock { _ = entries.removeValue(forKey: id) }
        #endif
    }

    /// The suspects now, by site (most first, then by name).
    func suspects() -> [Suspects] {
        // Strong references are taken under the lock and examined and released after it: a
        // release here may free a loop, whose deinit takes the lock.
        let loops = lock.withLock { entries.values.compactMap { $0.loop.map { ($0, $0.creationSite) } } }
        var counts: [String: Int] = [:]
        for (loop, site) in loops where loop.holdsPendingWorkWhileIdle {
            counts[site, default: 0] += 1
        }
        return counts.map { Suspects(site: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.site < $1.site }
    }

    /// The loops made at `site` that are suspects now (tests shut them down with it).
    func suspectLoops(madeAt site: String) -> [EventLoop] {
        let loops = lock.withLock { entries.values.compactMap { $0.loop } }
        return loops.filter { $0.creationSite == site && $0.holdsPendingWorkWhileIdle }
    }

    /// The report's text, nil when there is nothing to say.
    func report(atExit: Bool) -> String? {
        let found = suspects()
        guard !found.isEmpty else { return nil }
        let total = found.reduce(0) { $0 + $1.count }
        var text =
            "LoopScheduler: \(total) EventLoop\(total == 1 ? " is" : "s are") \(atExit ? "still alive at exit" : "alive"), "
            + "never shut down, with jobs or timed actions pending. Pending work that refers to its "
            + "loop keeps a dropped loop alive with its event_base and descriptors: call shutdown() "
            + "when you are done with a loop. Made at:\n"
        for entry in found.prefix(20) {
            text += "  \(entry.site) (\(entry.count))\n"
        }
        if found.count > 20 { text += "  … and \(found.count - 20) more places\n" }
        return text
    }

    private func printSuspects(atExit: Bool) {
        guard let text = report(atExit: atExit) else { return }
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
    }

    private func warnWhileRunning() {
        let count = suspects().reduce(0) { $0 + $1.count }
        let due = lock.withLock { () -> Bool in
            guard count >= nextWarningAt else { return false }
            while nextWarningAt <= count { nextWarningAt *= 2 }
            return true
        }
        if due { printSuspects(atExit: false) }
    }
}
