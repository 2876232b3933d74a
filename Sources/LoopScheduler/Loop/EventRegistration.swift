import CLibevent
import Synchronization

/// A timer, descriptor watch or signal watch on an `EventLoop`; cancelling it (or dropping the
/// last reference) frees its libevent event at once, with `event_free`.
///
/// Thread rules: `cancel()` is meant for the loop's thread. There, no callback of this
/// registration runs after `cancel()` has returned, even one that was already active in the
/// current iteration. From another thread `cancel()` is safe too: libevent's `event_del` then
/// waits for a callback of this registration that is running right now to finish.
public final class EventRegistration: Cancellable, @unchecked Sendable {
    /// `true` until the first `cancel()`; the exchange to `false` picks the one caller that frees
    /// the event (an atomic instead of a lock: one allocation and two mutex operations fewer per
    /// registration, which matters for short-lived timers).
    private let active = Atomic<Bool>(true)
    private let event: OpaquePointer
    private let box: CallbackBox
    private let onCancel: (() -> Void)?
    // Keeps the base alive while the event exists.
    private let loop: EventLoop

    init(loop: EventLoop, event: OpaquePointer, box: CallbackBox, onCancel: (() -> Void)? = nil) {
        self.loop = loop
        self.event = event
        self.box = box
        self.onCancel = onCancel
    }

    deinit {
        cancel()
    }

    /// `true` until `cancel()` (or deinit). A one-shot timer that fired is still not cancelled.
    public var isActive: Bool {
        active.load(ordering: .acquiring)
    }

    /// Frees the libevent event and releases the handler. Idempotent. See the type's thread rules.
    public func cancel() {
        guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        // event_free does event_del first, which drops it from the active queue as well.
        event_free(event)
        box.body = nil
        onCancel?()
    }
}
