import CLibevent
import LoopScheduler

/// The two loop services libcurl's multi-socket API needs: a persistent descriptor watch and a
/// one-shot timer. Everything runs on the loop's thread.
protocol FetchLoopDriver: AnyObject {
    /// Calls `handler(readable, writable)` each time `fd` is ready for what was asked, until the
    /// returned token is cancelled or released.
    func watch(fd: Int32, read: Bool, write: Bool, _ handler: @escaping (_ readable: Bool, _ writable: Bool) -> Void)
        -> Cancellable
    /// Calls `handler` once after `milliseconds` (0: on the next loop pass), unless cancelled or
    /// released first.
    func timer(milliseconds: Int, _ handler: @escaping () -> Void) -> Cancellable
}

/// A `FetchLoopDriver` on a raw libevent `event_base`, with `event_new`: for a base owned by C
/// code or a test, without an `EventLoop` object.
final class LibeventFetchDriver: FetchLoopDriver {
    let base: OpaquePointer

    init(base: OpaquePointer) {
        self.base = base
    }

    func watch(fd: Int32, read: Bool, write: Bool, _ handler: @escaping (Bool, Bool) -> Void) -> Cancellable {
        var what = Int16(EV_PERSIST)
        if read { what |= Int16(EV_READ) }
        if write { what |= Int16(EV_WRITE) }
        let event = LibeventEvent(base: base, fd: fd, what: what) { flags in
            handler(flags & Int16(EV_READ) != 0, flags & Int16(EV_WRITE) != 0)
        }
        event.add(timeout: nil)
        return event
    }

    func timer(milliseconds: Int, _ handler: @escaping () -> Void) -> Cancellable {
        let event = LibeventEvent(base: base, fd: -1, what: 0) { _ in handler() }
        event.add(timeout: timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000))
        return event
    }
}

/// One libevent event owning its Swift handler; freed on `cancel()` or release.
private final class LibeventEvent: Cancellable {
    private var event: OpaquePointer?
    private var handler: ((Int16) -> Void)?

    init(base: OpaquePointer, fd: Int32, what: Int16, handler: @escaping (Int16) -> Void) {
        self.handler = handler
        event = event_new(
            base, fd, what,
            { _, flags, context in
                guard let context else { return }
                let me = Unmanaged<LibeventEvent>.fromOpaque(context).takeUnretainedValue()
                me.handler?(flags)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    func add(timeout: timeval?) {
        guard let event else { return }
        if var tv = timeout {
            event_add(event, &tv)
        } else {
            event_add(event, nil)
        }
    }

    func cancel() {
        if let event { event_free(event) }
        event = nil
        handler = nil
    }

    deinit {
        cancel()
    }
}
