import CLibevent
import CLoopSupport

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide libevent set-up that must happen once, before any `event_base` exists.
enum LibeventSetup {
    /// `evthread_use_pthreads()` result, evaluated once (Swift `static let` is a thread-safe once).
    /// libevent only makes a base lockable and notifiable if threading was enabled before the base
    /// was created, so every base-creating path reads this first.
    static let threadsEnabled: Bool = evthread_use_pthreads() == 0
}

/// The Swift side of one libevent event: the closure its C callback runs.
///
/// libevent gets an unretained pointer to the box (`Unmanaged`: a C `void *` argument is the
/// only way to reach Swift state from its callback; no benchmark row is involved). Whoever owns
/// the `event*` keeps the box alive and frees the event before releasing the box, so the pointer
/// is valid whenever the callback can run; the trampoline holds the box for the call, so a
/// callback may free its own event.
final class CallbackBox: @unchecked Sendable {
    /// Cleared (after the event is freed) to release captured state deterministically.
    var body: ((Int32, Int16) -> Void)?

    init(_ body: @escaping (Int32, Int16) -> Void) {
        self.body = body
    }

    var context: UnsafeMutableRawPointer {
        Unmanaged.passUnretained(self).toOpaque()
    }
}

/// The single C callback for every event we create: forwards to the box's closure.
func loopEventTrampoline(_ fd: Int32, _ what: Int16, _ arg: UnsafeMutableRawPointer?) {
    guard let arg else { return }
    let box = Unmanaged<CallbackBox>.fromOpaque(arg).takeUnretainedValue()
    // The closure may free its own event and drop the last owner of the box; keep it alive.
    withExtendedLifetime(box) {
        let body = box.body
        body?(fd, what)
    }
}

/// Creates an event on `base` bound to `box`, at `priority` when given. Traps only when libevent
/// cannot allocate (out of memory or invalid flags, both programming errors).
func makeLibeventEvent(
    base: OpaquePointer, fd: Int32, flags: Int32, priority: Int32?, box: CallbackBox
) -> OpaquePointer {
    guard let event = event_new(base, fd, Int16(truncatingIfNeeded: flags), loopEventTrampoline, box.context)
    else {
        preconditionFailure("EventLoop: libevent could not create an event (fd \(fd), flags \(flags))")
    }
    if let priority {
        _ = event_priority_set(event, priority)
    }
    return event
}

extension MonotonicInstant.Stride {
    /// The span as a libevent `timeval`, negative spans clamped to zero and the nanoseconds
    /// rounded *up* to the next microsecond so a timer never fires before its deadline.
    var timevalRoundedUp: timeval {
        let ns = max(nanoseconds, 0)
        let us = ns / 1_000 + (ns % 1_000 == 0 ? 0 : 1)
        return timeval(tv_sec: Int(us / 1_000_000), tv_usec: Int(us % 1_000_000))
    }
}

/// The current thread's id as a comparable integer (`pthread_t` is an integer on Linux).
@inline(__always)
func currentThreadID() -> UInt {
    UInt(pthread_self())
}

/// Whether the caller runs on the process's main thread.
@inline(__always)
func isMainThread() -> Bool {
    cloop_is_main_thread() != 0
}
