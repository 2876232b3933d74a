import CLibevent
import Synchronization

/// A timer, descriptor watch or signal watch on an `EventLoop`; cancelling it (or dropping the
/// last reference) removes its libevent event at once. `EventLoop.shutdown()` cancels every
/// registration of the loop.
///
/// Thread rules: `cancel()` (and dropping the last reference) is safe from any thread and never
/// waits for the loop.
/// - On the loop's thread, no call of the handler runs after `cancel()` has returned, even one
///   already active in the current iteration, and the handler is released before it returns.
/// - From another thread, no call of the handler *starts* after `cancel()` has returned; a call
///   that is running on the loop's thread at that moment finishes. The handler is released on
///   the loop's thread once that call has returned (in the loop's next callback, or when the loop
///   shuts down or is freed). `cancel()` never waits for the running call: waiting for it
///   deadlocked whenever that call needed something the cancelling thread held (a lock, or a
///   `shutdown()` waiting for the cancel to finish).
public final class EventRegistration: Cancellable, @unchecked Sendable {
    /// The part the libevent event owns (see `RegistrationCore`).
    let core: RegistrationCore
    /// Keeps the base alive while the event exists; its `registrations` track the core.
    let loop: EventLoop

    /// Creates the event (not added yet: see `track()` and `discard()`), at the loop's ordinary
    /// priority.
    init(
        loop: EventLoop, fd: Int32, flags: Int32, handler: RegistrationCore.Handler,
        onCancel: (() -> Void)? = nil
    ) {
        self.loop = loop
        core = RegistrationCore(
            base: loop.base, priority: loop.normalPriority, runState: loop.state, fd: fd, flags: flags,
            handler: handler, onCancel: onCancel)
    }

    deinit {
        loop.cancelRegistration(core)
    }

    /// The libevent event, for the `event_add` that follows creation (loop thread).
    var event: OpaquePointer { core.event }

    /// After a successful `event_add`: enters the registration in its loop's set, so that
    /// `shutdown()` frees the event before the base.
    func track() {
        loop.registrations.insert(core)
    }

    /// After a failed `event_add`: frees the event; the registration is inactive and untracked,
    /// and `onCancel` is not called.
    func discard() {
        guard core.active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        core.free()
    }

    /// `true` until `cancel()` (or deinit, or the loop's `shutdown()`). A one-shot timer that
    /// fired is still not cancelled.
    public var isActive: Bool {
        core.active.load(ordering: .acquiring)
    }

    /// Removes the libevent event and releases the handler. Idempotent. Any thread; never waits
    /// (see the type's thread rules).
    public func cancel() {
        loop.cancelRegistration(core)
    }
}

/// What a registration's libevent event needs, owned by the event: the event holds one strong
/// reference (its callback argument) from `event_new` until the event is freed. So the callback
/// always finds it alive, whatever thread drops the `EventRegistration` meanwhile, and freeing
/// the event never has to wait for a running callback to protect the object.
///
/// `handler` is read by the callback and cleared by whoever frees the event, both on the loop's
/// thread (or while no callback can run: the loop does not run, or the base is being freed).
final class RegistrationCore: @unchecked Sendable {
    /// What the event runs: a timer's or signal's closure, or a watch's, which gets the
    /// conditions that hold.
    enum Handler {
        case plain(() -> Void)
        case io((IOEvents) -> Void)
    }

    /// `true` until cancelled; the exchange to `false` picks the one caller that removes the
    /// event (an atomic instead of a lock: fewer mutex operations per short-lived timer). The
    /// callback checks it too, so a call that libevent dequeued just before a cancel from
    /// another thread does not run the handler.
    let active = Atomic<Bool>(true)
    /// The libevent event. Set once in `init`.
    private(set) var event: OpaquePointer!
    var handler: Handler?
    let onCancel: (() -> Void)?
    /// Index in the loop's `RegistrationSet`, -1 when not in it; guarded by the set's lock.
    var slot = -1
    /// Noted by each call (adopted bases are run by foreign code on threads of its choosing).
    let runState: LoopRunState
    /// A descriptor watch (`EV_READ`/`EV_WRITE`), not a timer or a signal (whose "descriptor"
    /// is the signal number).
    let watchesDescriptor: Bool

    init(
        base: OpaquePointer, priority: Int32, runState: LoopRunState, fd: Int32, flags: Int32,
        handler: Handler, onCancel: (() -> Void)?
    ) {
        self.handler = handler
        self.onCancel = onCancel
        self.runState = runState
        watchesDescriptor = fd >= 0 && flags & Int32(EV_SIGNAL) == 0 && flags & Int32(EV_READ | EV_WRITE) != 0
        // The event's own reference, released by `free()`.
        let argument = Unmanaged.passRetained(self).toOpaque()
        guard let event = event_new(base, fd, Int16(truncatingIfNeeded: flags), registrationTrampoline, argument)
        else {
            preconditionFailure("EventLoop: libevent could not create an event (fd \(fd), flags \(flags))")
        }
        _ = event_priority_set(event, priority)
        self.event = event
    }

    /// Frees the event, releases the handler and drops the event's reference to this object.
    /// Only where no callback of the event can be running on another thread: on the loop's
    /// thread (`event_free` then never waits; inside this event's own callback is fine), or
    /// while the loop does not run. The caller holds a reference of its own for the call.
    func free() {
        event_free(event)
        handler = nil
        Unmanaged.passUnretained(self).release()
    }

    /// Runs the handler (the libevent callback, on the loop's thread).
    @inline(__always)
    fileprivate func fire(_ what: Int16) {
        runState.noteLoopThread()
        guard active.load(ordering: .acquiring) else { return }
        switch handler {
        case .plain(let body)?: body()
        case .io(let body)?: body(IOEvents(rawValue: what))
        case nil: break
        }
    }
}

/// Finishes, on the loop's thread, a cancel made on another thread: that thread removed the
/// event without waiting (`event_del_noblock`) and queued this ticket as a job. The job runs
/// after any call of the handler that was running; freeing happens when the ticket is released,
/// so a job dropped unrun (the loop shut down first) frees the event too, before the base goes.
final class RegistrationTeardown: @unchecked Sendable {
    private let core: RegistrationCore
    private var leftToLibevent = false

    init(_ core: RegistrationCore) {
        self.core = core
    }

    /// The job queue refused the ticket (it is closed). `cancelRegistration` rules that out, but
    /// if it happened, freeing here could wait for a running callback: libevent's finalizer
    /// frees the event instead, on the loop's thread after any running call, or when the base
    /// is freed.
    func leaveToLibevent() {
        leftToLibevent = true
        event_free_finalize(0, core.event, registrationFinalizer)
    }

    deinit {
        if !leftToLibevent { core.free() }
    }
}

/// `event_free_finalize`'s callback for `RegistrationTeardown.leaveToLibevent()`: releases the
/// handler and the event's reference; libevent frees the event afterwards.
private func registrationFinalizer(_ event: OpaquePointer?, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let core = Unmanaged<RegistrationCore>.fromOpaque(arg)
    core.takeUnretainedValue().handler = nil
    core.release()
}

/// The C callback of every registration's event: `arg` is the registration's core, which the
/// event owns; it is held for the call, since the handler may cancel the registration (which
/// frees the event and drops the event's reference).
private func registrationTrampoline(_ fd: Int32, _ what: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let core = Unmanaged<RegistrationCore>.fromOpaque(arg).takeUnretainedValue()
    withExtendedLifetime(core) { core.fire(what) }
}

extension EventLoop {
    /// Cancels `core`'s registration (see `EventRegistration`'s thread rules). Any thread.
    ///
    /// On the loop's thread, or while the loop does not run and this thread owns it, the event is
    /// freed at once. Elsewhere nothing here may wait for a running callback (it may be waiting
    /// for us: a `shutdown()` waits for this very call): the event is only removed, with
    /// `event_del_noblock`, and freeing it is handed to the loop's thread as a job. That job
    /// cannot be lost: `RegistrationSet.close()` waits for this call before `shutdown()` closes
    /// the job queue, and a job released unrun frees the event as well.
    func cancelRegistration(_ core: RegistrationCore) {
        let set = registrations
        set.beginFree()
        defer { set.endFree() }
        guard core.active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        set.remove(core)
        let me = currentThreadID()
        let running = state.runningThread.load(ordering: .acquiring)
        let onLoopThread = running == me || (running == 0 && state.ownerThread.load(ordering: .acquiring) == me)
        // A host driver mirrors watched descriptors in its epoll set: drop this one while its
        // number still names the file (the caller may close it as soon as we return).
        if core.watchesDescriptor {
            hostWake.forget(descriptor: event_get_fd(core.event), wakeHost: !onLoopThread)
        }
        if onLoopThread {
            core.free()
        } else {
            event_del_noblock(core.event)
            handOffToLoopThread(RegistrationTeardown(core))
        }
        core.onCancel?()
    }
}
