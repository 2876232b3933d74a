import CGLib
import Foundation
import LoopTestSupport
import Synchronization
import XCTest

@testable import GLibLoop
@testable import LoopScheduler

/// Every `poll` GLib makes through `countingPoll` (the poll function of contexts under test).
let glibPollCount = Atomic<Int>(0)

/// A `GPollFunc` that counts and then polls: the number of times the host went to sleep.
func countingPoll(_ fds: UnsafeMutablePointer<GPollFD>?, _ count: guint, _ timeout: gint) -> gint {
    glibPollCount.add(1, ordering: .relaxed)
    return g_poll(fds, count, timeout)
}

/// One GLib iteration of `context` (nil: the default one); true if a source was dispatched.
@discardableResult
func iterate(_ context: OpaquePointer?, blocking: Bool) -> Bool {
    g_main_context_iteration(context, blocking ? 1 : 0) != 0
}

/// Blocking GLib iterations until `done()`, guarded by a 5 s GLib timeout (which counts as an
/// iteration of its own, so a test that hangs fails instead of hanging).
func iterate(_ context: OpaquePointer?, until done: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
    let timedOut = Shared(false)
    let guardSource = g_timeout_source_new(5_000)!
    let box = Unmanaged.passRetained(timedOut).toOpaque()
    g_source_set_callback(
        guardSource,
        { arg in
            Unmanaged<Shared<Bool>>.fromOpaque(arg!).takeUnretainedValue().value = true
            return 0
        }, box, { arg in Unmanaged<Shared<Bool>>.fromOpaque(arg!).release() })
    g_source_attach(guardSource, context)
    while !done() && !timedOut.value { iterate(context, blocking: true) }
    g_source_destroy(guardSource)
    g_source_unref(guardSource)
    XCTAssertFalse(timedOut.value, "timed out", file: file, line: line)
}
