import CLibevent
import CLoopSupport
import Dispatch  // links libdispatch.so, which exports the _4CF run-loop hooks
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A libevent `event_base` with a Swift face: timers, descriptor and signal watches, work sent
/// from other threads, an end-of-iteration flush for coalescing, and a `SerialExecutor`.
///
/// **Threads.** A loop belongs to one thread at a time: `EventLoop.main` to the main thread, a
/// loop made with `init()` to the thread that created it until `run()`/`runOnce(blocking:)` is
/// called on another thread, an adopted loop to the thread that created it and, after that, to
/// whichever thread its callbacks run on. `execute(_:)`, `stop()`, `LoopEventSource.signal()` and
/// `LoopScheduler.schedule` are safe from any thread. The registration calls (`scheduleTimer`,
/// `scheduleRepeatingTimer`, `watch`, `onSignal`) must be made on the loop's thread (a
/// precondition checks it while the loop runs under `run()`/`runOnce`); use `execute` to get there.
///
/// **Nothing waits for a callback.** libevent's `event_del` and `event_free`, called from a thread
/// other than the loop's, wait until a callback of that event that is running has returned. So
/// the loop never calls them under a lock that one of its callbacks takes, nor on a path that a
/// running callback may be waiting for (a `shutdown()` from a callback waits for cancels in
/// progress): from other threads it removes events with `event_del_noblock` and leaves freeing
/// them to the loop's thread (a job), and it frees its own events only on the loop's thread or
/// while the loop does not run, after releasing its locks. For you this means that
/// `EventRegistration.cancel()`, a `LoopScheduler` token's `cancel()` and
/// `LoopEventSource.cancel()` never block, from any thread: a call already running on the loop's
/// thread may finish after they return. Foreign libevent code on `base` must follow the same
/// rule.
///
/// **Lifetime: shut a loop down when you are done with it.** A loop you drop is freed with its
/// `event_base` and descriptors only if nothing of its own pending work refers to it. Work that
/// does (a job capturing a `LoopEventSource`, a timed action capturing its `LoopScheduler`, a
/// job holding a repeating timer's token, a delivery a Combine operator scheduled before its
/// subscription was cancelled) forms a reference cycle through the loop's queues that ARC cannot
/// free, so, as with SwiftNIO's event loops, end a loop with `shutdown()`: it releases that work
/// unrun, and the loop is freed when the last reference goes. Debug builds name the loops that
/// look dropped (alive, never shut down, not running, holding jobs or timed actions) by the
/// place they were made (the initialisers' `file` and `line`): on standard error at exit, and
/// when 64, 128, 256, … of them are alive at once. Schedulers, sources and registrations keep
/// their loop alive on purpose: a loop freed while one of them still used it would be worse
/// than the leak.
///
/// **Iterations and the flush.** An *iteration* polls once (waiting first if the caller blocks
/// and nothing is ready), runs every callback that is ready and every one those make ready in
/// turn, and ends with the flush when a source was signalled, otherwise when nothing is ready any
/// more. Work queued and flushes requested *during* the flush belong to the next iteration, which
/// does not wait first. Work that keeps queueing work cannot stretch one iteration beyond the
/// flush deadline (`maximumFlushDelay`, guarantee 5). `run()` runs iterations until `stop()`;
/// `runOnce(blocking:)` runs exactly one. Bases we create get three priorities: 0 for the
/// bounded-delay timer, 1 (libevent's default for new events, ours and foreign ones) for ordinary
/// callbacks, 2 for the flush. Signalled `LoopEventSource`s are serviced by the flush, which keeps
/// the iteration contract of docs/ARCHITECTURE.md:
/// 1. once per iteration per source, however many signals;
/// 2. after the iteration's callbacks, before the loop blocks;
/// 3. a signal during the flush is served in the next iteration, and the loop does not block
///    first;
/// 4. `signal()` is thread-safe and wakes the loop;
/// 5. the flush is delayed by at most about `maximumFlushDelay` even under sustained busy work
///    (then it runs early, among the busy callbacks): more exactly, by `maximumFlushDelay` plus
///    the time of at most 256 callbacks of one priority queue (libevent checks timers only between
///    such capped passes) plus one callback that is already running;
/// 6. sources are serviced by `order`, then creation order.
///
/// **Adopted bases.** libevent cannot add priorities to a base that foreign code created, so the
/// loop uses what it finds. With two or more priorities the flush takes the lowest and everything
/// holds as above for events at higher priorities. With a single priority the flush is one more
/// active event in the same queue: guarantees 2-6 still hold, but guarantee 1 weakens to "once per
/// burst": the flush runs after every event that was already active when the first signal came,
/// and a callback activated later in the same pass that signals again gets a second flush in that
/// pass. The cap on one queue's processing (`event_config_set_max_dispatch_interval`) is a
/// base-creation option, so on an adopted base guarantee 5 is only as good as the foreign base's
/// configuration.
public final class EventLoop: @unchecked Sendable {
    /// The libevent `event_base*` this loop drives. Usable for foreign libevent code (bufferevents,
    /// evhttp, libcurl integration) on the loop's thread. Never freed while the loop exists; an
    /// adopted base is never freed by us at all.
    public let base: OpaquePointer
    /// The longest the flush may be postponed by busy work, in nanoseconds (see guarantee 5).
    public let maximumFlushDelay: MonotonicInstant.Stride

    let ownsBase: Bool
    let isMain: Bool
    /// Where the loop was made (`#fileID`, `#line` of the initialiser call), for `LoopLeakCheck`.
    private let creationFile: StaticString
    private let creationLine: UInt
    /// Priority for our ordinary events (timers, watches, signals, `execute`).
    let normalPriority: Int32
    /// Number of priorities the base has.
    let priorityCount: Int32

    /// Threads and the stop request, shared with the flush and the timer queue (see
    /// `LoopRunState` for why it is not the loop itself).
    let state: LoopRunState
    /// Inside `runOnce`: an end-of-iteration flush pass was requested because work kept queueing
    /// more work. Running thread only.
    private var iterationEndRequested = false
    /// Called by `runOnce` after its iteration, before it returns (tests place a racing `stop()`
    /// there). Running thread only.
    var exitHookForTesting: (() -> Void)?

    /// Work from `execute` and `LoopScheduler.schedule` (see `JobQueue`).
    private let jobQueue = JobQueue()
    /// Live timers and watches, freed by `shutdown()`.
    let registrations = RegistrationSet()
    /// `shutdown()` was called inside `run()`/`runOnce`: the base is freed when that returns.
    /// Running thread only.
    private var freeBaseOnExit = false
    private var wakeEvent: OpaquePointer!
    private let wakeBox = CallbackBox { _, _ in }

    private var mainQueueEvent: OpaquePointer?
    private var mainQueueBox: CallbackBox?

    /// The end-of-iteration flush (see `FlushCoordinator`).
    private(set) var flush: FlushCoordinator!
    /// The ordered timer queue behind `LoopScheduler`.
    private(set) var timers: SchedulerTimerQueue!

    // MARK: Creation

    /// Makes an `EventLoop` with its own `event_base`, meant to be run on another thread.
    ///
    /// The base uses `EVENT_BASE_FLAG_PRECISE_TIMER` (`CLOCK_MONOTONIC` and a timerfd: timers have
    /// microsecond granularity) and three priorities (see the type's doc). It caps one priority
    /// queue's processing at `EventLoop.callbacksPerPass` callbacks
    /// (`event_config_set_max_dispatch_interval` with a callback count and no time slice), so
    /// busy work returns to the poll regularly and the bounded-delay timer is seen there.
    /// - Parameters:
    ///   - maximumFlushDelay: bound of guarantee 5, default 20 ms; values below 1 ms are raised to
    ///     1 ms.
    ///   - file: where the loop is made (leave the default): debug builds name it when the loop is
    ///     never shut down and holds pending work (see the type's doc, "Lifetime").
    ///   - line: the line of `file`.
    /// - Throws: `EventLoopError.baseCreationFailed` if libevent cannot create the base.
    public convenience init(
        maximumFlushDelay: MonotonicInstant.Stride = .milliseconds(20), file: StaticString = #fileID,
        line: UInt = #line
    ) throws {
        let delay = max(maximumFlushDelay, .milliseconds(1))
        let base = try EventLoop.makeBase(maximumFlushDelay: delay)
        self.init(base: base, owns: true, isMain: false, maximumFlushDelay: delay, site: (file, line))
    }

    /// Wraps an `event_base*` that foreign C code created and may run itself with
    /// `event_base_loop`. We never free it; free it yourself after the last reference to this loop
    /// (and to its registrations and sources) is gone.
    ///
    /// Cross-thread calls (`execute`, `stop`, `signal`) need a base created *after*
    /// `EventLoop.enableThreadSupport()` (libevent's `evthread_use_pthreads()`). See the type's
    /// doc for what the flush guarantees with the base's priorities.
    /// - Parameters:
    ///   - base: the foreign `event_base*`.
    ///   - maximumFlushDelay: bound of guarantee 5, default 20 ms; values below 1 ms are raised to
    ///     1 ms.
    ///   - file: where the loop is made (leave the default), for the debug-build diagnostic of
    ///     loops never shut down (see the type's doc, "Lifetime").
    ///   - line: the line of `file`.
    /// - Throws: `EventLoopError.baseCreationFailed` if the base reports no priorities.
    public convenience init(
        adopting base: OpaquePointer, maximumFlushDelay: MonotonicInstant.Stride = .milliseconds(20),
        file: StaticString = #fileID, line: UInt = #line
    ) throws {
        _ = LibeventSetup.threadsEnabled
        guard event_base_get_npriorities(base) >= 1 else { throw EventLoopError.baseCreationFailed }
        self.init(
            base: base, owns: false, isMain: false, maximumFlushDelay: max(maximumFlushDelay, .milliseconds(1)),
            site: (file, line))
    }

    /// Calls libevent's `evthread_use_pthreads()` once per process. Our initialisers do it
    /// themselves; call it before C code creates a base you will adopt. Idempotent, any thread.
    public static func enableThreadSupport() {
        _ = LibeventSetup.threadsEnabled
    }

    private static func makeBase(maximumFlushDelay: MonotonicInstant.Stride) throws -> OpaquePointer {
        guard LibeventSetup.threadsEnabled, let config = event_config_new() else {
            throw EventLoopError.baseCreationFailed
        }
        defer { event_config_free(config) }
        _ = event_config_set_flag(config, Int32(EVENT_BASE_FLAG_PRECISE_TIMER.rawValue))
        // A callback count, not a time slice: with a time slice libevent reads the clock after
        // every callback. Guarantee 5 is kept by time all the same: the priority-0 deadline timer
        // of the flush is checked at each of these polls.
        _ = event_config_set_max_dispatch_interval(config, nil, EventLoop.callbacksPerPass, 0)
        guard let base = event_base_new_with_config(config) else { throw EventLoopError.baseCreationFailed }
        guard event_base_priority_init(base, 3) == 0 else {
            event_base_free(base)
            throw EventLoopError.baseCreationFailed
        }
        return base
    }

    /// Most callbacks one priority queue runs before libevent polls again (and checks timers) on
    /// bases we create. Small enough that the flush deadline is late by at most this many
    /// callbacks; large enough that the extra non-blocking poll costs little per callback.
    static let callbacksPerPass: Int32 = 256

    private init(
        base: OpaquePointer, owns: Bool, isMain: Bool, maximumFlushDelay: MonotonicInstant.Stride,
        site: (file: StaticString, line: UInt)
    ) {
        self.base = base
        creationFile = site.file
        creationLine = site.line
        self.ownsBase = owns
        self.isMain = isMain
        self.maximumFlushDelay = maximumFlushDelay
        let count = max(event_base_get_npriorities(base), 1)
        priorityCount = count
        // Ours: 1 of 3. Adopted: libevent's default (count / 2) unless that is the lowest queue,
        // which the flush needs for itself.
        normalPriority = count == 1 ? 0 : min(count / 2, count - 2)
        let state = LoopRunState(base: base, isMain: isMain)
        self.state = state

        wakeEvent = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: normalPriority, box: wakeBox)
        jobQueue.wakeEvent = wakeEvent
        flush = FlushCoordinator(
            base: base, flushPriority: count - 1, urgentPriority: 0,
            maximumDelay: maximumFlushDelay,
            runState: state)
        timers = SchedulerTimerQueue(loop: self)
        // Unowned (the safe kind, which traps rather than reads freed memory): the loop owns the
        // box, so a strong capture would be a cycle; the wake event is freed (by `shutdown()` or
        // deinit) before the loop goes, and a drain that drops the last reference to the loop
        // holds it for the call.
        wakeBox.body = { [unowned self] _, _ in self.drainJobs() }
        if !isMain { LoopLeakCheck.shared.register(self, site: creationSite) }
    }

    deinit {
        if !isMain { LoopLeakCheck.shared.unregister(ObjectIdentifier(self)) }
        if !state.isShutDown.load(ordering: .acquiring) {
            releaseEverything()
            if ownsBase { event_base_free(base) }
        }
    }

    // MARK: Lifecycle

    /// Ends the loop for good, as SwiftNIO's `syncShutdownGracefully` or libevent's
    /// `event_base_free`: pending `execute`/`schedule` work and timed actions are released
    /// without running, every timer, descriptor and signal registration is cancelled (its
    /// `cancel()` becomes a no-op), every event source is cancelled (later signals are ignored),
    /// and the `event_base` is freed if the loop created it (an adopted base is left to its owner,
    /// with none of our events on it). This breaks the reference cycles that pending work forms
    /// with the loop (a job capturing a source, a timed action capturing a scheduler), so a loop
    /// that is shut down and dropped is freed with its descriptors.
    ///
    /// Idempotent. Afterwards `run()` throws `EventLoopError.shutDown`; `runOnce`, `execute`,
    /// `LoopScheduler.schedule`, the registration calls and `makeEventSource` trap with a message
    /// saying so; `stop()`, `signal()` and `cancel()` do nothing; `base` must not be used.
    ///
    /// Call on the loop's thread, or on any thread while the loop is not running. From one of the
    /// loop's callbacks inside `run()`/`runOnce`, the rest of the iteration is skipped, the call
    /// returns, and the base is freed then. Other threads must have stopped submitting work: an
    /// `execute` that races with `shutdown()` traps.
    /// - Precondition: not `EventLoop.main` (it lives as long as the process).
    public func shutdown() {
        precondition(!isMain, "EventLoop.main cannot be shut down: it lives as long as the process")
        let me = currentThreadID()
        let running = state.runningThread.load(ordering: .acquiring)
        precondition(
            running == 0 || running == me,
            "EventLoop.shutdown() must be called on the loop's thread while it runs; use execute(_:) to get there")
        guard !state.isShutDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        releaseEverything()
        if running == me {
            freeBaseOnExit = ownsBase
            event_base_loopbreak(base)
        } else if ownsBase {
            event_base_free(base)
        }
    }

    /// `true` once `shutdown()` was called. Any thread.
    public var isShutDown: Bool {
        state.isShutDown.load(ordering: .acquiring)
    }

    /// `file:line` where the loop was made.
    var creationSite: String {
        "\(creationFile):\(creationLine)"
    }

    /// Not shut down, not inside `run()`/`runOnce`, and holding jobs queued from outside a run or
    /// timed actions: what a loop dropped by its owner and kept alive by its own pending work
    /// looks like (`LoopLeakCheck`). Any thread.
    var holdsPendingWorkWhileIdle: Bool {
        guard !state.isShutDown.load(ordering: .acquiring), state.runningThread.load(ordering: .acquiring) == 0
        else { return false }
        return jobQueue.hasSharedWork || timers.heapCounts.live > 0
    }

    /// Frees every event of ours on the base and releases the work and handlers they carried.
    private func releaseEverything() {
        registrations.close()
        flush.close()
        timers.close()
        jobQueue.close()
        wakeBox.body = nil
        if let mainQueueEvent { event_free(mainQueueEvent) }
        mainQueueEvent = nil
        mainQueueBox?.body = nil
    }

    // MARK: The main loop

    /// The loop of the process's main thread, created on first use.
    ///
    /// It watches libdispatch's main-queue eventfd (`_dispatch_get_main_queue_handle_4CF`); when
    /// it is readable it reads the 8-byte counter and calls `_dispatch_main_queue_callback_4CF`,
    /// as Foundation's `RunLoop` does. So while it runs, `DispatchQueue.main.async`,
    /// `Task { @MainActor in }` and `@MainActor` code run on it, and `MainActor.assumeIsolated`
    /// holds in every callback. Do not call `dispatchMain()` in a program that uses it.
    /// - Precondition: the first access is on the main thread. Traps if libevent cannot create a
    ///   base (nothing can run without it).
    public static var main: EventLoop {
        mainLoop
    }

    private static let mainLoop: EventLoop = {
        precondition(isMainThread(), "EventLoop.main must first be used on the main thread")
        let loop: EventLoop
        do {
            let base = try makeBase(maximumFlushDelay: .milliseconds(20))
            loop = EventLoop(
                base: base, owns: true, isMain: true, maximumFlushDelay: .milliseconds(20), site: (#fileID, #line))
        } catch {
            fatalError("EventLoop.main: \(error)")
        }
        loop.attachMainDispatchQueue()
        return loop
    }()

    private func attachMainDispatchQueue() {
        let fd = _dispatch_get_main_queue_handle_4CF()
        let box = CallbackBox { fd, _ in
            var counter: UInt64 = 0
            _ = read(fd, &counter, MemoryLayout<UInt64>.size)
            _dispatch_main_queue_callback_4CF(nil)
        }
        let event = makeLibeventEvent(
            base: base, fd: fd, flags: Int32(EV_READ | EV_PERSIST), priority: normalPriority, box: box)
        guard event_add(event, nil) == 0 else {
            fatalError("EventLoop.main: libevent refused libdispatch's main-queue descriptor \(fd)")
        }
        mainQueueEvent = event
        mainQueueBox = box
    }

    // MARK: Threads

    /// `true` when called on the loop's thread (see the type's doc for which thread that is).
    /// Any thread.
    public var inEventLoop: Bool {
        // The main loop's owner is the main thread for ever (set at creation, checked there and
        // by enterRun), so one comparison serves both kinds without gettid/getpid syscalls.
        return state.ownerThread.load(ordering: .acquiring) == currentThreadID()
    }

    /// Notes that a callback runs on this thread: adopted bases are run by foreign code.
    @inline(__always)
    func noteLoopThread() {
        state.noteLoopThread()
    }

    /// Traps unless the caller may register events: on the loop's thread, or any thread while
    /// the loop is not inside `run()`/`runOnce` (then nothing races with libevent's callbacks).
    func preconditionRegistrationThread(_ function: StaticString = #function) {
        precondition(!state.isShutDown.load(ordering: .relaxed), "EventLoop.\(function) after shutdown()")
        let running = state.runningThread.load(ordering: .acquiring)
        precondition(
            running == 0 || running == currentThreadID(),
            "EventLoop.\(function) must be called on the loop's thread; use execute(_:) to get there")
    }

    // MARK: Running

    /// Runs the loop until `stop()`: blocks the calling thread, serving callbacks as they become
    /// ready (libevent `event_base_loop` with `EVLOOP_NO_EXIT_ON_EMPTY`, so an empty loop waits).
    ///
    /// A `stop()` that arrives while the loop is not running makes the next `run()` return after
    /// its first iteration.
    /// - Throws: `EventLoopError.reentrantRun` from one of the loop's own callbacks,
    ///   `.wrongThread` for the main loop off the main thread or while the loop runs on another
    ///   thread, `.dispatchFailed` if libevent fails (for example C code already runs the base).
    public func run() throws {
        try enterRun()
        defer { exitRun() }
        if event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY) < 0 {
            throw EventLoopError.dispatchFailed
        }
    }

    /// Runs one iteration (see the type's doc) and returns: with `blocking`, first waits until at
    /// least one event is ready (libevent `EVLOOP_ONCE`); without, returns at once if nothing is
    /// ready (`EVLOOP_NONBLOCK`). For a host loop that drives this one.
    ///
    /// The iteration runs every ready callback, and what they make ready in turn, then ends with
    /// the flush pass: work queued by a flush handler (an `updateView()` that schedules more
    /// work) and a flush requested during the flush belong to the next call, which does not
    /// block first. Work that keeps queueing work cannot hold one call for ever: the iteration
    /// then ends with a flush pass about `maximumFlushDelay` after it started (guarantee 5).
    /// - Returns: `false` if `stop()` ended the iteration (a stop that arrives while the call
    ///   returns ends the next call), a callback shut the loop down, or libevent failed; else
    ///   `true`.
    ///   `while loop.runOnce(blocking: true) {}` runs until `stop()`.
    /// - Precondition: not re-entrant, not on the wrong thread (the same rules as `run()`).
    @discardableResult
    public func runOnce(blocking: Bool) -> Bool {
        do {
            try enterRun()
        } catch {
            preconditionFailure("EventLoop.runOnce: \(error)")
        }
        defer { exitRun() }
        state.drivenOnce = true
        // Dates this call for the flush's deadline timer (see `FlushCoordinator.deadlinePass`).
        state.onceCalls.store(state.onceCalls.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        iterationEndRequested = false
        let taken = state.stopsTaken
        let flags = blocking ? EVLOOP_ONCE | EVLOOP_NO_EXIT_ON_EMPTY : EVLOOP_ONCE | EVLOOP_NONBLOCK
        let result = event_base_loop(base, flags)
        state.drivenOnce = false
        // A stop that came after the flush pass ends this call: consume it here (exactly once).
        let stopped = state.stopsTaken != taken || state.takeStopRequest()
        exitHookForTesting?()
        return result >= 0 && !stopped && !state.isShutDown.load(ordering: .relaxed)
    }

    /// Makes `run()` return (and ends a `runOnce` iteration) after the current iteration's flush.
    /// Any thread; wakes a sleeping loop.
    public func stop() {
        state.stopRequested.store(true, ordering: .releasing)
        flush.requestPass()
    }

    private func enterRun() throws {
        if state.isShutDown.load(ordering: .acquiring) { throw EventLoopError.shutDown }
        let me = currentThreadID()
        // The main loop's owner thread was captured on the main thread at creation and never
        // changes: a comparison instead of two syscalls per iteration.
        if isMain && state.ownerThread.load(ordering: .relaxed) != me { throw EventLoopError.wrongThread }
        let (exchanged, current) = state.runningThread.compareExchange(
            expected: 0, desired: me, ordering: .acquiringAndReleasing)
        if !exchanged {
            throw current == me ? EventLoopError.reentrantRun : EventLoopError.wrongThread
        }
        state.ownerThread.store(me, ordering: .releasing)
    }

    private func exitRun() {
        // The stop request is not touched here: only a consumer clears it (see `LoopRunState`).
        state.runningThread.store(0, ordering: .releasing)
        if freeBaseOnExit {
            freeBaseOnExit = false
            event_base_free(base)
        }
    }

    // MARK: Work from any thread

    /// Runs `work` on the loop's thread in a later callback of the loop, in FIFO order with every
    /// other `execute`. Any thread; wakes a sleeping loop. Work queued while earlier work runs is
    /// served in the same iteration after it (one `event_active`'d event carries the whole queue).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        enqueue(work)
    }

    /// `execute` for work that is not `Sendable` by type: the caller promises that running it on
    /// the loop's thread is safe (a `Scheduler` contract: actions run on one thread, as in
    /// Combine). Any thread. Saves the wrapper closure (one allocation) that a `Sendable` box
    /// would cost.
    func enqueue(_ work: @escaping () -> Void) {
        // Inside run()/runOnce on this very thread (a relaxed load suffices: only this thread
        // stores its own id there), the loop thread's lock-free queue keeps the FIFO order.
        let queued =
            state.runningThread.load(ordering: .relaxed) == currentThreadID()
            ? jobQueue.pushFromLoopThread(work) : jobQueue.push(work)
        if !queued { preconditionFailure("EventLoop.execute/LoopScheduler.schedule after the loop's shutdown()") }
        flush.hostWake.notify()  // a host loop driving us waits on its own descriptor (HostWake)
    }

    /// Hands `teardown` to the loop's thread: a job releases it there, after any callback that is
    /// running (see `cancelRegistration`). Any thread other than the loop's.
    func handOffToLoopThread(_ teardown: RegistrationTeardown) {
        if jobQueue.push({ withExtendedLifetime(teardown) {} }) {
            flush.hostWake.notify()
        } else {
            teardown.leaveToLibevent()
        }
    }

    private func drainJobs() {
        noteLoopThread()
        jobQueue.drain()
        // Inside `runOnce`, work that queued more work would keep this iteration going: ask for
        // the flush pass that ends it (after the work, or at the flush deadline if the work never
        // stops).
        if state.drivenOnce, !iterationEndRequested, jobQueue.hasWorkWaiting {
            iterationEndRequested = true
            flush.requestPass()
        }
    }

    // MARK: Flush facility

    /// Creates a coalescing source serviced by this loop's end-of-iteration flush (see
    /// `LoopEventSource`). Any thread.
    /// - Parameters:
    ///   - order: flush rank; lower is serviced first, equal ranks in creation order.
    ///   - handler: runs on the loop's thread with the source (read `mergedSignalCount` there).
    public func makeEventSource(order: Int = 0, _ handler: @escaping (LoopEventSource) -> Void) -> LoopEventSource {
        precondition(!state.isShutDown.load(ordering: .relaxed), "EventLoop.makeEventSource after shutdown()")
        return LoopEventSource(loop: self, order: order, handler: handler)
    }

    /// A source whose passes call `target` directly (see `LoopEventSource.init(loop:order:target:)`).
    /// Any thread.
    package func makeEventSource(order: Int = 0, target: any LoopFlushTarget) -> LoopEventSource {
        precondition(!state.isShutDown.load(ordering: .relaxed), "EventLoop.makeEventSource after shutdown()")
        return LoopEventSource(loop: self, order: order, target: target)
    }

    /// How many flush passes delivered at least one source so far (diagnostics and tests). Any
    /// thread.
    public var completedFlushCount: Int {
        flush.completedPasses
    }
}
