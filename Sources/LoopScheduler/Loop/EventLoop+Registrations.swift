import CLibevent

#if canImport(Glibc)
import Glibc
#endif

extension EventLoop {
    /// Runs `handler` once, `delay` from now (nanoseconds, rounded up to libevent's microsecond;
    /// negative means now). Keep the registration: dropping it cancels the timer.
    ///
    /// Call on the loop's thread (see `EventLoop`). The handler runs on the loop's thread. Equal
    /// deadlines are not ordered by libevent; use `LoopScheduler` for FIFO same-instant work.
    public func scheduleTimer(
        after delay: MonotonicInstant.Stride, _ handler: @escaping () -> Void
    ) -> EventRegistration {
        preconditionRegistrationThread()
        let registration = EventRegistration(loop: self, fd: -1, flags: 0, handler: .plain(handler))
        var tv = delay.timevalRoundedUp
        let added = event_add(registration.event, &tv)
        precondition(added == 0, "EventLoop.scheduleTimer: libevent refused the timer")
        registration.track()
        return registration
    }

    /// Runs `handler` every `interval` (nanoseconds, at least 1 µs; libevent `EV_PERSIST` timer,
    /// re-armed from each firing) until the registration is cancelled or dropped.
    ///
    /// Call on the loop's thread. The handler runs on the loop's thread.
    public func scheduleRepeatingTimer(
        every interval: MonotonicInstant.Stride, _ handler: @escaping () -> Void
    ) -> EventRegistration {
        preconditionRegistrationThread()
        let registration = EventRegistration(loop: self, fd: -1, flags: Int32(EV_PERSIST), handler: .plain(handler))
        var tv = max(interval, .microseconds(1)).timevalRoundedUp
        let added = event_add(registration.event, &tv)
        precondition(added == 0, "EventLoop.scheduleRepeatingTimer: libevent refused the timer")
        registration.track()
        return registration
    }

    /// Watches `fd` for readiness (persistent, level-triggered, libevent `EV_PERSIST`): `handler`
    /// gets the conditions that hold each time the loop sees one of `events`. With a `timeout`
    /// (nanoseconds), `handler` also gets `.timeout` after that long without readiness.
    ///
    /// Call on the loop's thread. The handler runs on the loop's thread. The descriptor stays
    /// yours: cancel the registration before closing it.
    /// - Precondition: `fd >= 0`, `events` contains `.read` or `.write`, and libevent accepts the
    ///   descriptor (an open descriptor that `epoll` supports: not a regular file).
    public func watch(
        fd: Int32, events: IOEvents, timeout: MonotonicInstant.Stride? = nil,
        _ handler: @escaping (IOEvents) -> Void
    ) -> EventRegistration {
        preconditionRegistrationThread()
        precondition(fd >= 0, "EventLoop.watch: invalid file descriptor \(fd)")
        let wanted = events.intersection([.read, .write])
        precondition(!wanted.isEmpty, "EventLoop.watch: events must contain .read or .write")
        let registration = EventRegistration(
            loop: self, fd: fd, flags: Int32(wanted.rawValue) | Int32(EV_PERSIST), handler: .io(handler))
        let added: Int32
        if let timeout {
            var tv = timeout.timevalRoundedUp
            added = event_add(registration.event, &tv)
        } else {
            added = event_add(registration.event, nil)
        }
        if added != 0 {
            registration.discard()
            preconditionFailure("EventLoop.watch: libevent refused descriptor \(fd) (closed, or a regular file?)")
        }
        registration.track()
        return registration
    }

    /// Runs `handler` on the loop's thread each time the process receives `signal` (libevent
    /// signal event, `EV_SIGNAL | EV_PERSIST`: the C handler only wakes the loop, so the Swift
    /// handler may do anything). Several deliveries before the loop wakes may merge into one
    /// call. Cancelling restores the previous disposition.
    ///
    /// Call on the loop's thread. libevent handles signals on one base per process, so only one
    /// `EventLoop` may hold signal registrations at a time.
    /// - Throws: `EventLoopError.invalidSignal` for a number outside 1..<65 or `SIGKILL`/`SIGSTOP`,
    ///   `.signalsClaimedByAnotherLoop` if another loop holds signal registrations,
    ///   `.registrationFailed` if libevent refuses.
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) throws -> EventRegistration {
        preconditionRegistrationThread()
        guard signal > 0, signal < 65, signal != SIGKILL, signal != SIGSTOP else {
            throw EventLoopError.invalidSignal(signal)
        }
        try SignalOwnership.shared.claim(for: self)
        let registration = EventRegistration(
            loop: self, fd: signal, flags: Int32(EV_SIGNAL | EV_PERSIST), handler: .plain(handler)
        ) { [self] in
            SignalOwnership.shared.release(for: self)
        }
        guard event_add(registration.event, nil) == 0 else {
            registration.discard()
            SignalOwnership.shared.release(for: self)
            throw EventLoopError.registrationFailed
        }
        registration.track()
        return registration
    }
}

/// Which loop holds the process's signal registrations (libevent serves signals on one base).
final class SignalOwnership: @unchecked Sendable {
    static let shared = SignalOwnership()

    private let lock = Lock()
    private var owner: ObjectIdentifier?
    private var count = 0

    func claim(for loop: EventLoop) throws {
        try lock.withLock {
            let id = ObjectIdentifier(loop)
            if let owner, owner != id { throw EventLoopError.signalsClaimedByAnotherLoop }
            owner = id
            count += 1
        }
    }

    func release(for loop: EventLoop) {
        lock.withLock {
            guard owner == ObjectIdentifier(loop) else { return }
            count -= 1
            if count == 0 { owner = nil }
        }
    }
}
