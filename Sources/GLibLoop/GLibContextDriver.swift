import CGLib
import LoopScheduler

#if canImport(Glibc)
import Glibc
#endif

/// The reverse direction: a `GMainContext` driven from an `EventLoop`, so a program whose main
/// loop is ours (`run()`, `runOnce`) still serves GLib-based code (GIO, D-Bus, libraries that
/// attach `GSource`s to the default context) on the same thread, with no polling.
///
/// Each GLib cycle is GLib's own protocol for an external poll (`g_main_context_prepare`,
/// `g_main_context_query`, the poll, `g_main_context_check`, `g_main_context_dispatch`), with
/// libevent in place of the poll: the descriptors GLib asks for become `EventLoop.watch`
/// registrations and its timeout an `EventLoop.scheduleTimer`. When any of them fires, one job
/// of the same iteration (`execute`) checks and dispatches GLib, once however many fired, then
/// prepares the next cycle.
///
/// The context is acquired for the driver's lifetime, so GLib wakes it (its wake-up descriptor,
/// among the watched ones) when another thread attaches a source or calls
/// `g_main_context_wakeup`. GLib does not wake a context for sources attached by its owner
/// thread, which GLib expects to prepare again before it polls: code on the loop's thread that
/// attaches GLib sources outside a GLib callback should call `refresh()` (or
/// `g_main_context_wakeup`) afterwards. Sources attached inside GLib callbacks need nothing.
///
/// Each cycle costs one `fstat` per descriptor GLib polls: watches are keyed by the open file, not
/// only by the number, so a descriptor closed and reopened under the same number inside a GLib
/// callback is watched afresh.
///
/// **Threads.** Create, use and drop it on the loop's thread. Do not also run the context with
/// `g_main_loop_run`/`g_main_context_iteration`, and do not combine it with a `GLibLoopSource`
/// on the same context and loop (each would wait for the other).
public final class GLibContextDriver {
    /// The `GMainContext*` this driver runs.
    public let context: OpaquePointer
    /// The loop GLib runs on.
    public let loop: EventLoop
    /// How many GLib dispatch passes ran (`g_main_context_dispatch` calls).
    public private(set) var dispatchCount = 0

    private var pollFDs: [GPollFD] = []
    private var maxPriority: gint = 0
    private var watches: [Int32: Watch] = [:]
    private var timer: EventRegistration?
    private var cycleQueued = false
    private var running = true

    /// One descriptor GLib polls, watched on our loop. The open file (device and inode from
    /// `fstat`) is part of the key: a GLib callback may close a descriptor and open another that
    /// gets the same number (a GIO client reconnecting), and closing took the old file out of
    /// libevent's epoll set, so a watch kept because number and events still matched would never
    /// report the new file.
    private struct Watch {
        var events: IOEvents
        var file: FileIdentity
        var registration: EventRegistration
    }

    /// The open file a descriptor names (`st_dev`, `st_ino`); nil when `fstat` fails (a closed
    /// descriptor: then libevent refuses it too, and GLib reports it as invalid).
    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64

        init?(descriptor: Int32) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// Errors creating a driver.
    public enum Failure: Error, Equatable {
        /// Another thread owns the context (`g_main_context_acquire` failed).
        case contextOwnedElsewhere
    }

    /// Starts serving `context` (nil: GLib's default context) from `loop`.
    /// - Throws: `Failure.contextOwnedElsewhere` if another thread holds the context.
    public init(context: OpaquePointer? = nil, loop: EventLoop) throws {
        let resolved = context ?? g_main_context_default()!
        guard g_main_context_acquire(resolved) != 0 else { throw Failure.contextOwnedElsewhere }
        self.context = g_main_context_ref(resolved)
        self.loop = loop
        prepareCycle()
    }

    deinit {
        invalidate()
        g_main_context_unref(context)
    }

    /// Stops serving the context and releases it. Idempotent. The loop's thread.
    public func invalidate() {
        guard running else { return }
        running = false
        for (_, watch) in watches { watch.registration.cancel() }
        watches.removeAll()
        timer?.cancel()
        timer = nil
        g_main_context_release(context)
    }

    /// Prepares the context again now: call it after attaching GLib sources from the loop's
    /// thread outside a GLib callback (see the type's doc). The loop's thread.
    public func refresh() {
        guard running else { return }
        queueCycle()
    }

    // MARK: The cycle

    /// `g_main_context_prepare` and `_query`, then watches and a timer for what GLib waits on.
    private func prepareCycle() {
        guard running else { return }
        let readyNow = g_main_context_prepare(context, &maxPriority) != 0
        var timeout: gint = -1
        var needed = g_main_context_query(context, maxPriority, &timeout, nil, 0)
        repeat {
            pollFDs = [GPollFD](repeating: GPollFD(), count: Int(needed))
            let count = needed
            needed = pollFDs.withUnsafeMutableBufferPointer {
                g_main_context_query(context, maxPriority, &timeout, $0.baseAddress, count)
            }
        } while needed > pollFDs.count
        pollFDs.removeLast(pollFDs.count - Int(needed))
        updateWatches()
        timer?.cancel()
        timer = nil
        if readyNow {
            queueCycle()
        } else if timeout >= 0 {
            timer = loop.scheduleTimer(after: .milliseconds(Int(timeout))) { [unowned self] in self.queueCycle() }
        }
    }

    private func updateWatches() {
        var wanted: [Int32: IOEvents] = [:]
        for entry in pollFDs {
            var events: IOEvents = []
            if entry.events & gushort(G_IO_IN.rawValue | G_IO_PRI.rawValue) != 0 { events.insert(.read) }
            if entry.events & gushort(G_IO_OUT.rawValue) != 0 { events.insert(.write) }
            if events.isEmpty { events = .read }  // errors and hang-ups show as readable
            wanted[entry.fd, default: []].formUnion(events)
        }
        var files: [Int32: FileIdentity] = [:]
        for fd in wanted.keys { files[fd] = FileIdentity(descriptor: fd) }
        for (fd, watch) in watches where wanted[fd] != watch.events || files[fd] != watch.file {
            watch.registration.cancel()
            watches[fd] = nil
        }
        for (fd, events) in wanted where watches[fd] == nil {
            // A closed descriptor: libevent would refuse it. GLib's own poll would report
            // G_IO_NVAL at once; so do we.
            guard let file = files[fd] else {
                noteReady(fd: fd, [], invalid: true)
                continue
            }
            let registration = loop.watch(fd: fd, events: events) { [unowned self] fired in
                self.noteReady(fd: fd, fired)
            }
            watches[fd] = Watch(events: events, file: file, registration: registration)
        }
    }

    private func noteReady(fd: Int32, _ fired: IOEvents, invalid: Bool = false) {
        var revents: gushort = invalid ? gushort(G_IO_NVAL.rawValue) : 0
        if fired.contains(.read) { revents |= gushort(G_IO_IN.rawValue) }
        if fired.contains(.write) { revents |= gushort(G_IO_OUT.rawValue) }
        for index in pollFDs.indices where pollFDs[index].fd == fd {
            pollFDs[index].revents |= revents & pollFDs[index].events
            if pollFDs[index].revents == 0 { pollFDs[index].revents = revents }
        }
        queueCycle()
    }

    /// One job of this iteration checks and dispatches GLib, however many descriptors fired.
    private func queueCycle() {
        guard !cycleQueued else { return }
        cycleQueued = true
        // `execute` takes Sendable work; this job is queued and run on the loop's thread only.
        let target = LoopThreadReference(self)
        loop.execute { target.driver?.finishCycle() }
    }

    /// `g_main_context_check` with the readiness libevent saw, `g_main_context_dispatch` if
    /// anything is ready, then the next cycle's preparation.
    private func finishCycle() {
        cycleQueued = false
        guard running else { return }
        let count = gint(pollFDs.count)
        let ready = pollFDs.withUnsafeMutableBufferPointer {
            g_main_context_check(context, maxPriority, $0.baseAddress, count) != 0
        }
        if ready {
            dispatchCount += 1
            g_main_context_dispatch(context)
        }
        prepareCycle()
    }
}

/// A weak reference carried through `EventLoop.execute` by a job the loop's thread queues for
/// itself (the driver is loop-thread-only, so this crosses no thread).
private struct LoopThreadReference: @unchecked Sendable {
    weak var driver: GLibContextDriver?
    init(_ driver: GLibContextDriver) { self.driver = driver }
}
