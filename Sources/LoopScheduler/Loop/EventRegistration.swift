import CLibevent
import Synchronization

/// A timer, descriptor watch or signal watch on an `EventLoop`; cancelling it (or dropping the
/// last reference) frees its libevent event at once, with `event_free`. `EventLoop.shutdown()`
/// cancels every registration of the loop.
///
/// Thread rules: `cancel()` is meant for the loop's thread. There, no callback of this
/// registration runs after `cancel()` has returned, even one that was already active in the
/// current iteration. From another thread `cancel()` is safe too: libevent's `event_del` then
/// waits for a callback of this registration that is running right now to finish.
public final class EventRegistration: Cancellable, @unchecked Sendable {
    /// What the event runs: a timer's or signal's closure, or a watch's, which gets the
    /// conditions that hold.
    enum Handler {
        case plain(() -> Void)
        case io((IOEvents) -> Void)
    }

    /// `true` until freed; the exchange to `false` picks the one caller that frees the event (an
    /// atomic instead of a lock: fewer mutex operations per short-lived timer).
    let active = Atomic<Bool>(true)
    /// Keeps the base alive while the event exists; its `registrations` track this one.
    let loop: EventLoop
    /// `loop.registrations`, unretained (the loop above owns it): no retain and release of the
    /// set per track, cancel and deinit.
    unowned(unsafe) let registrations: RegistrationSet
    /// The libevent event, whose callback argument is this object (unretained: the event is
    /// freed before the object goes). Set once in `init`.
    private(set) var event: OpaquePointer!
    /// Cleared by whoever frees the event (after freeing it), to release captured state. Read
    /// by the callback, which cannot run concurrently with that (see the type's thread rules).
    var handler: Handler?
    let onCancel: (() -> Void)?
    /// Index in the loop's `RegistrationSet`, -1 when not in it; guarded by the set's lock.
    var slot = -1

    /// Creates the event (not added yet: see `track()` and `discard()`), at the loop's ordinary
    /// priority.
    init(loop: EventLoop, fd: Int32, flags: Int32, handler: Handler, onCancel: (() -> Void)? = nil) {
        self.loop = loop
        registrations = loop.registrations
        self.handler = handler
        self.onCancel = onCancel
        guard
            let event = event_new(
                loop.base, fd, Int16(truncatingIfNeeded: flags), registrationTrampoline,
                Unmanaged.passUnretained(self).toOpaque())
        else {
            preconditionFailure("EventLoop: libevent could not create an event (fd \(fd), flags \(flags))")
        }
        _ = event_priority_set(event, loop.normalPriority)
        self.event = event
    }

    deinit {
        let set = registrations
        set.free(self)
        // Always through the lock: a `close()` that won this entry may still be using it there.
        set.remove(self)
    }

    /// After a successful `event_add`: enters the registration in its loop's set, so that
    /// `shutdown()` frees the event before the base.
    func track() {
        registrations.insert(self)
    }

    /// After a failed `event_add`: frees the event; the registration is inactive and untracked,
    /// and `onCancel` is not called.
    func discard() {
        guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        event_free(event)
        handler = nil
    }

    /// Runs the handler (the libevent callback, on the loop's thread).
    @inline(__always)
    fileprivate func fire(_ what: Int16) {
        loop.state.noteLoopThread()
        switch handler {
        case .plain(let body)?: body()
        case .io(let body)?: body(IOEvents(rawValue: what))
        case nil: break
        }
    }

    /// `true` until `cancel()` (or deinit, or the loop's `shutdown()`). A one-shot timer that
    /// fired is still not cancelled.
    public var isActive: Bool {
        active.load(ordering: .acquiring)
    }

    /// Frees the libevent event and releases the handler. Idempotent. See the type's thread rules.
    public func cancel() {
        let set = registrations
        if set.free(self) { set.remove(self) }
    }
}

/// The C callback of every registration's event: `arg` is the registration, held for the call
/// (the handler may cancel or drop it: the event is freed then, the object only afterwards).
private func registrationTrampoline(_ fd: Int32, _ what: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let registration = Unmanaged<EventRegistration>.fromOpaque(arg).takeUnretainedValue()
    registration.fire(what)
}
