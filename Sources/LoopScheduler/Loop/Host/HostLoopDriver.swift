#if canImport(Glibc)
import Glibc
#endif

/// What a foreign main loop needs to drive an `EventLoop` without polling it, in the manner of
/// libuv's `uv_backend_fd`/`uv_backend_timeout`/`uv_run(UV_RUN_NOWAIT)` or GLib's `GSource`
/// prepare/check/dispatch: a descriptor, a deadline, and a call that runs what is ready.
///
/// The host's iteration, on the loop's thread:
/// ```swift
/// let driver = try loop.makeHostDriver()
/// while hostIsRunning {
///     let timeout = driver.prepare()                       // nil: no deadline of ours
///     hostPoll(fds: [driver.descriptor: POLLIN] + hostFds, timeout: timeout)
///     if driver.hasReadyWork { driver.dispatch() }         // or dispatch() unconditionally
/// }
/// ```
///
/// - `descriptor` is readable whenever the loop has work: a watched descriptor is ready (also
///   foreign libevent events on `loop.base`: evhttp, bufferevents), a timer is due, another thread
///   called `execute`, `LoopScheduler.schedule`, `LoopEventSource.signal` or `stop`, or a POSIX
///   signal watched with `onSignal` arrived.
/// - `prepare()` brings the descriptor up to date with the loop's registrations and returns the
///   time until the next deadline (`.zero` when work is ready now). Call it before every wait,
///   as GLib calls a source's `prepare` and libuv hosts call `uv_backend_timeout`. The descriptor
///   also becomes readable at that deadline by itself (a `timerfd`), so a host that can only
///   wait on descriptors may ignore the returned value, but not the call.
/// - `dispatch()` runs one iteration without blocking (`runOnce(blocking: false)`): every ready
///   callback, then the end-of-iteration flush. So the iteration contract holds per host
///   iteration: an observer whose view models changed gets one `updateView()` per host iteration
///   that ran our work, after that work and before the host blocks again; a change made during
///   the flush is served by the next host iteration, which `prepare()` then does not let block.
///
/// **Threads.** `prepare`, `hasReadyWork` and `dispatch` run on the loop's thread (the main
/// thread for `EventLoop.main`); the loop's cross-thread entry points keep working from any
/// thread and wake the host through `descriptor`. Register events (`watch`, `scheduleTimer`,
/// `onSignal`, foreign libevent events) on the loop's thread, or send the registration there with
/// `execute`: `prepare()` notices them, but a registration made by another thread while the host
/// sleeps is not noticed until the host's next iteration. The same goes for `event_active` that
/// foreign C code calls from another thread on `loop.base` (libevent wakes only a base inside
/// `event_base_loop`): follow it with `loop.execute {}` to wake the host.
///
/// **Cost.** `prepare()` visits every event of the base (`event_base_foreach_event`) and makes a
/// few system calls (`epoll_ctl` for what changed, one
/// `fstat` per watched descriptor, one `timerfd_settime`). That suits GUI hosts; a loop with
/// thousands of descriptors should be run by `run()` on its own thread instead.
///
/// A loop has at most one driver at a time; `invalidate()` (or deinit) releases it. Do not call
/// `run()` or `runOnce` yourself while a host drives the loop.
public final class HostLoopDriver {
    /// The loop this driver runs.
    public let loop: EventLoop
    private let mirror: RegistrationMirror
    private let wake: HostWake
    private var valid = true
    /// The deadline found by the last `prepare()` (our clock, `CLOCK_MONOTONIC`), nil if none.
    public private(set) var nextDeadline: MonotonicInstant?
    /// How many `dispatch()` calls ran (each one loop iteration). Loop thread.
    public private(set) var dispatchCount = 0

    /// Creates the driver for `loop` and makes the loop wake it from now on.
    /// - Throws: `HostLoopError.alreadyDriven` when another driver holds `loop`,
    ///   `.setupFailed` when a descriptor cannot be created, `.loopShutDown` after
    ///   `loop.shutdown()`.
    public init(loop: EventLoop) throws {
        guard !loop.isShutDown else { throw HostLoopError.loopShutDown }
        self.loop = loop
        wake = loop.hostWake
        let wakeDescriptor = try wake.attach()
        do {
            mirror = try RegistrationMirror(
                base: loop.base, wakeDescriptor: wakeDescriptor, preciseClock: loop.ownsBase)
        } catch {
            wake.detach()
            throw error
        }
        mirror.wake = wake
        wake.attachMirror(mirror.descriptor)
    }

    deinit {
        invalidate()
        // Our probe event lives on the loop's base: after `shutdown()` freed it, leave it alone.
        if loop.isShutDown { mirror.baseIsGone = true }
    }

    /// Stops waking the host; the loop can be run by `run()` again or given another driver.
    /// Idempotent. Loop thread.
    public func invalidate() {
        guard valid else { return }
        valid = false
        wake.detach()
    }

    /// The descriptor to poll for input (`POLLIN`/`G_IO_IN`/`EPOLLIN`); readable whenever the loop
    /// has work (see the type's doc). Valid until the driver is deinitialised; never read or
    /// close it yourself.
    public var descriptor: Int32 { mirror.descriptor }

    /// Call just before the host blocks: brings `descriptor` up to date with the loop's
    /// registrations and returns how long the host may sleep for our sake: `.zero` when work is
    /// ready now, the time until the earliest timer, or nil when only a descriptor can wake us
    /// (and always nil once the loop was shut down: its base is gone, nothing will be ready).
    /// Loop thread.
    public func prepare() -> MonotonicInstant.Stride? {
        guard !loop.isShutDown else {
            nextDeadline = nil
            return nil
        }
        let deadline = mirror.refresh()
        nextDeadline = deadline
        if mirror.hasActiveEvents { return .zero }
        guard let deadline else { return nil }
        return max(MonotonicInstant.now().distance(to: deadline), .zero)
    }

    /// `prepare()`'s timeout in whole milliseconds, rounded up (so the host never wakes before
    /// the deadline): -1 for none, as `poll(2)` and GLib's `prepare` take it; 0 only when work is
    /// ready now. Loop thread.
    public func prepareMilliseconds() -> Int32 {
        guard let stride = prepare() else { return -1 }
        let ms = (stride.nanoseconds + 999_999) / 1_000_000
        return Int32(clamping: ms)
    }

    /// Whether a `dispatch()` now would find work: the descriptor is readable or events are
    /// already active. For a host's "check" step after its poll. Loop thread.
    public var hasReadyWork: Bool {
        if loop.isShutDown { return false }
        if mirror.hasActiveEvents { return true }
        var entry = pollfd(fd: mirror.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Runs exactly what is ready, without blocking: one loop iteration (`runOnce(blocking:
    /// false)`), ending with the flush. Safe to call when nothing is ready (it returns at once).
    /// - Returns: `false` when the iteration was ended by `loop.stop()` (the host decides what a
    ///   stop means to it, for example quitting its own main loop) or the loop was shut down
    ///   (then nothing runs), else `true`.
    /// - Precondition: on the loop's thread, not from inside one of the loop's callbacks.
    @discardableResult
    public func dispatch() -> Bool {
        guard !loop.isShutDown else { return false }
        dispatchCount += 1
        mirror.drain()
        wake.drain()
        wake.beginDispatch()
        defer { wake.endDispatch() }
        return loop.runOnce(blocking: false)
    }
}
