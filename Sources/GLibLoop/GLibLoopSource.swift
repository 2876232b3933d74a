import CGLib
import LoopScheduler

/// A GLib `GSource` that drives an `EventLoop` from a `GMainContext`: the loop's timers, watches,
/// signals, cross-thread work and end-of-iteration flush run inside `g_main_loop_run` (or any
/// `g_main_context_iteration`), with no polling. For `EventLoop.main` on GLib's default context
/// that includes `LoopScheduler.main` work, `@MainActor` jobs and `DispatchQueue.main` blocks
/// (the main loop watches libdispatch's main-queue descriptor), so a GTK application can use
/// ViewModelKit unchanged.
///
/// Built on `HostLoopDriver`, mapped onto GLib's source protocol:
/// - `prepare`: `HostLoopDriver.prepare()`; ready at once when events are already active,
///   otherwise the timeout until our earliest timer (rounded up to GLib's milliseconds; the
///   driver's descriptor also turns readable at the exact deadline).
/// - the poll: the driver's descriptor, added with `g_source_add_unix_fd` for `G_IO_IN`.
///   The source may recurse (`g_source_set_can_recurse`), so GLib does not take the descriptor
///   out and put it back around each dispatch (which wakes the context for nothing); a GLib
///   iteration nested in one of our callbacks (a modal loop) sees the source as not ready and
///   without a descriptor until our dispatch returns: our callbacks, like GLib's, do not nest.
/// - `check`: nothing of ours; GLib treats the source as ready when the descriptor polled
///   readable.
/// - `dispatch`: `HostLoopDriver.dispatch()`, one loop iteration ending with the flush. So the
///   iteration contract holds per GLib iteration: one `updateView()` per observer per GLib
///   iteration that ran our work, before GLib polls again.
///
/// **Threads.** Create, use and drop it on the thread that runs `context` (the main thread for
/// the default context and `EventLoop.main`), which must also be the loop's thread.
/// **Lifetime.** Keep the object: dropping it (or `destroy()`) removes the source from its
/// context and frees the loop for another host or for `run()`.
public final class GLibLoopSource {
    /// The driver behind the source (its `dispatchCount` counts the GLib iterations that ran us).
    public let driver: HostLoopDriver
    /// The `GSource*`; one reference is ours until `destroy()`.
    let source: UnsafeMutablePointer<GSource>
    /// The `GSource*` as an untyped pointer, for GLib calls such as `g_source_set_priority`
    /// through your own GLib or GTK module (a typed `GSource` would tie you to ours: the same C
    /// struct imported by two modules is two Swift types).
    public var sourcePointer: UnsafeMutableRawPointer { UnsafeMutableRawPointer(source) }
    private let state: SourceState
    private var destroyed = false

    /// The loop this source drives.
    public var loop: EventLoop { driver.loop }

    /// Called on the loop's thread when `loop.stop()` ended a dispatch, for example to quit the
    /// `GMainLoop` (as `EventLoop.runInsideGLib` does). Without it a stop only ends that
    /// iteration.
    public var onStop: (() -> Void)? {
        get { state.onStop }
        set { state.onStop = newValue }
    }

    /// Attaches a source driving `loop` to `context`.
    /// - Parameters:
    ///   - loop: the loop to drive; it must not be run by `run()` meanwhile.
    ///   - context: a `GMainContext*`, nil for GLib's default context.
    ///   - priority: GLib priority of our dispatch among the context's sources; default
    ///     `G_PRIORITY_DEFAULT` (0), the priority of GTK's input handling and GLib's timeouts.
    /// - Throws: `HostLoopError` from `HostLoopDriver`.
    public init(loop: EventLoop, context: OpaquePointer? = nil, priority: Int32 = 0) throws {
        driver = try loop.makeHostDriver()
        state = SourceState(driver: driver)
        let size = MemoryLayout<GSource>.stride + MemoryLayout<UnsafeMutableRawPointer>.stride
        guard let made = g_source_new(loopSourceFuncs, guint(size)) else {
            preconditionFailure("GLibLoopSource: g_source_new returned NULL")
        }
        source = made
        state.source = made
        stateSlot(of: made).pointee = Unmanaged.passRetained(state).toOpaque()
        g_source_set_name(made, "LoopScheduler.EventLoop")
        g_source_set_priority(made, priority)
        // GLib "blocks" a source that cannot recurse while it dispatches: it removes the
        // source's descriptors from the poll set and adds them back afterwards, and adding one
        // signals the context's wake-up, so every dispatch would cost GLib one more, empty
        // iteration. We allow recursion instead and handle a nested iteration ourselves (see
        // `SourceState.suspendForNestedIteration`).
        g_source_set_can_recurse(made, 1)
        state.watchDescriptor()
        g_source_attach(made, context)
    }

    deinit {
        destroy()
    }

    /// Detaches the source from its context (GLib `g_source_destroy`) and drops our reference;
    /// the driver is released with the last reference. Idempotent. The context's thread.
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        g_source_destroy(source)
        g_source_unref(source)
        driver.invalidate()
    }
}

/// What the C callbacks reach through the `GSource` (retained by it, released in `finalize`).
final class SourceState {
    let driver: HostLoopDriver
    var onStop: (() -> Void)?
    /// Unowned: the source owns this state (it is freed with the source's finalize).
    var source: UnsafeMutablePointer<GSource>?
    /// The `g_source_add_unix_fd` tag of the driver's descriptor; nil while it is removed.
    private var descriptorTag: gpointer?
    /// Inside `driver.dispatch()`: a GLib iteration now is nested in one of our callbacks
    /// (a modal dialog's loop, say).
    private var dispatching = false

    init(driver: HostLoopDriver) {
        self.driver = driver
    }

    func watchDescriptor() {
        // Destroyed from one of our own callbacks: GLib refuses descriptors on a destroyed
        // source (and holds it alive until this dispatch returns).
        guard descriptorTag == nil, let source, g_source_is_destroyed(source) == 0 else { return }
        descriptorTag = g_source_add_unix_fd(source, driver.descriptor, G_IO_IN)
    }

    /// A GLib iteration nested inside our dispatch must not dispatch us again (`runOnce` is not
    /// re-entrant) nor spin on our descriptor, which stays readable until that dispatch ends:
    /// take the descriptor out of the poll set until the outer dispatch returns.
    /// - Returns: whether the call is nested (then the source is not ready).
    func suspendForNestedIteration() -> Bool {
        guard dispatching else { return false }
        if let tag = descriptorTag, let source {
            g_source_remove_unix_fd(source, tag)
            descriptorTag = nil
        }
        return true
    }

    func prepare(_ timeout: UnsafeMutablePointer<gint>?) -> gboolean {
        if suspendForNestedIteration() {
            timeout?.pointee = -1
            return 0
        }
        // 0 only when work is ready now (or a deadline passed): then GLib must not sleep.
        let milliseconds = driver.prepareMilliseconds()
        timeout?.pointee = milliseconds
        return milliseconds == 0 ? 1 : 0
    }

    /// Not ready by itself: GLib counts the source ready when its descriptor polled readable,
    /// and events already active made `prepare` answer ready (GLib then skips `check`).
    func check() -> gboolean {
        _ = suspendForNestedIteration()
        return 0
    }

    func dispatch() {
        if suspendForNestedIteration() { return }
        dispatching = true
        let running = driver.dispatch()
        dispatching = false
        watchDescriptor()  // after a nested iteration took it out
        if !running { onStop?() }
    }
}

/// The slot after the `GSource` header where the state pointer lives.
private func stateSlot(of source: UnsafeMutablePointer<GSource>) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
    (UnsafeMutableRawPointer(source) + MemoryLayout<GSource>.stride)
        .assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
}

private func state(of source: UnsafeMutablePointer<GSource>?) -> SourceState? {
    guard let source, let raw = stateSlot(of: source).pointee else { return nil }
    return Unmanaged<SourceState>.fromOpaque(raw).takeUnretainedValue()
}

/// GLib's vtable for our sources: static, shared by every `GLibLoopSource`, never freed.
nonisolated(unsafe) private let loopSourceFuncs: UnsafeMutablePointer<GSourceFuncs> = {
    let funcs = UnsafeMutablePointer<GSourceFuncs>.allocate(capacity: 1)
    funcs.initialize(
        to: GSourceFuncs(
            prepare: { source, timeout in
                state(of: source)?.prepare(timeout) ?? 0
            },
            check: { source in
                state(of: source)?.check() ?? 0
            },
            dispatch: { source, _, _ in
                state(of: source)?.dispatch()
                return 1  // G_SOURCE_CONTINUE
            },
            finalize: { source in
                guard let source, let raw = stateSlot(of: source).pointee else { return }
                stateSlot(of: source).pointee = nil
                Unmanaged<SourceState>.fromOpaque(raw).release()
            },
            closure_callback: nil,
            closure_marshal: nil))
    return funcs
}()
