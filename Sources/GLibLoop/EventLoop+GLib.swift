import CGLib
import LoopScheduler

extension EventLoop {
    /// Runs this loop inside a `GMainLoop` on `context` until `stop()`: GLib's sources and ours
    /// share one thread and one poll (`g_main_loop_run` with a `GLibLoopSource`). Use it where a
    /// program would call `run()` but also needs GLib-based code (GTK, GIO, D-Bus) served.
    ///
    /// Blocks the calling thread, which must be the loop's thread and may acquire `context` (for
    /// `EventLoop.main` and the default context: the main thread). Returns after the iteration in
    /// which `stop()` was called (its flush included), as `run()` does.
    /// - Parameter context: a `GMainContext*`; nil for GLib's default context.
    /// - Throws: `HostLoopError` if the loop already has a host.
    public func runInsideGLib(context: OpaquePointer? = nil) throws {
        let glibSource = try GLibLoopSource(loop: self, context: context)
        guard let mainLoop = g_main_loop_new(context, 0) else {
            preconditionFailure("EventLoop.runInsideGLib: g_main_loop_new returned NULL")
        }
        defer { g_main_loop_unref(mainLoop) }
        glibSource.onStop = { g_main_loop_quit(mainLoop) }
        g_main_loop_run(mainLoop)
        glibSource.destroy()
    }
}
