import CLibevent
import CLoopSupport

#if canImport(Glibc)
import Glibc
#endif

/// An epoll set that is readable whenever a libevent base has something to do, built with
/// libevent 2.1's public API only (see docs/DESIGN-NOTES.md, "Driven by a host loop").
///
/// libevent 2.1 does not publish its backend descriptor, so the set mirrors the base instead:
/// - every descriptor an added event waits on, found with `event_base_foreach_event` (which also
///   visits libevent's internal events: the signal socketpair, so a POSIX signal makes the set
///   readable, and the thread-notification eventfd);
/// - a `timerfd` armed at the base's earliest timer deadline, read from `event_pending`'s expiry
///   of each timer, measured against a probe timer added at "now" (both carry libevent's own
///   clock offset, so the difference is exact and needs no wall clock); a deadline already due
///   writes the wake-up eventfd instead;
/// - the loop's `HostWake` eventfd, for work queued outside a dispatch.
///
/// A descriptor whose watch is cancelled leaves the set at the cancel (`HostWake.forget`), not
/// at the next refresh: by then the number may be closed while a `dup` keeps its file open, and
/// such an entry can no longer be deleted.
///
/// `refresh()` re-reads the base before each host poll and applies the differences with
/// `epoll_ctl`; it costs O(events), one `fstat` per watched descriptor and a few more system
/// calls. Loop thread only, which is why the probe may be deleted and freed with the blocking
/// calls: on the loop's thread they never wait for a callback.
final class RegistrationMirror {
    /// The descriptor the host polls (an epoll instance: readable when any member is).
    let descriptor: Int32
    private let timerDescriptor: Int32
    private let wakeDescriptor: Int32
    private let base: OpaquePointer
    /// A timer we add at zero delay and delete at once, to read libevent's "now".
    private let probe: OpaquePointer
    private let probeBox = CallbackBox { _, _ in }
    /// Added to every deadline: 0 on bases with `EVENT_BASE_FLAG_PRECISE_TIMER` (ours), the
    /// coarse clock's resolution on adopted bases (libevent may read `CLOCK_MONOTONIC_COARSE`, and
    /// a wake-up before it sees the deadline would find nothing due and spin until it does).
    private let deadlineSlack: Int64
    private var mirrored: [Int32: Interest] = [:]
    /// The deadline the timerfd is armed at (ns, -1 disarmed); nil after it fired or before the
    /// first arming.
    private var armedDeadline: Int64?
    private let scan = Scan()
    /// The loop's wake-up, which removes a cancelled watch's descriptor from `descriptor` at the
    /// cancel and lists it for the next refresh (see `HostWake.forget(descriptor:)`).
    var wake: HostWake?

    /// What one descriptor is watched for, and which open file it is (device and inode from
    /// `fstat`): a descriptor closed and its number reused for another file must be added again,
    /// because closing removed it from the epoll set. Comparing `event*` pointers would not do:
    /// the allocator hands a freed event's address to the next one.
    struct Interest: Equatable {
        var events: UInt32
        var device: UInt64
        var inode: UInt64
    }

    /// The result of one `event_base_foreach_event` pass (reused between passes).
    final class Scan {
        /// The events `event_base_foreach_event` visited (read after it released the base lock).
        var events: [OpaquePointer] = []
        var interests: [Int32: Interest] = [:]
        var earliest: timeval?

        /// Records one event's descriptor interest and timer (`event_pending`, which locks).
        func record(_ event: OpaquePointer) {
            var expiry = timeval(tv_sec: 0, tv_usec: 0)
            let flags = Int32(
                event_pending(event, Int16(EV_READ | EV_WRITE | EV_CLOSED | EV_SIGNAL | EV_TIMEOUT), &expiry))
            if flags & Int32(EV_TIMEOUT) != 0 {
                if let earliest {
                    if microseconds(from: earliest, to: expiry) < 0 { self.earliest = expiry }
                } else {
                    earliest = expiry
                }
            }
            // A signal event's "descriptor" is the signal number; the delivery itself shows on
            // libevent's internal socketpair, an ordinary read event visited too.
            guard flags & Int32(EV_SIGNAL) == 0 else { return }
            let fd = event_get_fd(event)
            guard fd >= 0 else { return }
            var wanted: UInt32 = 0
            if flags & Int32(EV_READ) != 0 { wanted |= UInt32(CLOOP_EPOLL_IN) }
            if flags & Int32(EV_WRITE) != 0 { wanted |= UInt32(CLOOP_EPOLL_OUT) }
            if flags & Int32(EV_CLOSED) != 0 { wanted |= UInt32(CLOOP_EPOLL_RDHUP) }
            guard wanted != 0 else { return }
            if var interest = interests[fd] {
                interest.events |= wanted
                interests[fd] = interest
            } else {
                var status = stat()
                _ = fstat(fd, &status)
                interests[fd] = Interest(events: wanted, device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            }
        }
    }

    init(base: OpaquePointer, wakeDescriptor: Int32, preciseClock: Bool) throws {
        self.base = base
        self.wakeDescriptor = wakeDescriptor
        if preciseClock {
            deadlineSlack = 0
        } else {
            var resolution = timespec()
            clock_getres(CLOCK_MONOTONIC_COARSE, &resolution)
            deadlineSlack = Int64(resolution.tv_sec) * 1_000_000_000 + Int64(resolution.tv_nsec)
        }
        let epoll = cloop_epoll_create()
        guard epoll >= 0 else { throw HostLoopError.setupFailed(call: "epoll_create1", errno: errno) }
        let timer = cloop_timerfd_create()
        guard timer >= 0 else {
            let code = errno
            close(epoll)
            throw HostLoopError.setupFailed(call: "timerfd_create", errno: code)
        }
        descriptor = epoll
        timerDescriptor = timer
        probe = makeLibeventEvent(base: base, fd: -1, flags: 0, priority: nil, box: probeBox)
        for fd in [wakeDescriptor, timer] {
            guard cloop_epoll_control(epoll, EpollOperation.add, fd, UInt32(CLOOP_EPOLL_IN)) == 0 else {
                let code = errno
                event_free(probe)
                close(timer)
                close(epoll)
                throw HostLoopError.setupFailed(call: "epoll_ctl", errno: code)
            }
        }
    }

    /// Set once the loop was shut down: its base is freed, and `event_free` on the probe would
    /// lock the freed base (it hung). The probe's memory is then released with `free`, which is
    /// libevent's allocator here (nothing calls `event_set_mem_functions`) and touches no base.
    var baseIsGone = false

    deinit {
        if baseIsGone { free(UnsafeMutableRawPointer(probe)) } else { event_free(probe) }
        close(timerDescriptor)
        close(descriptor)
    }

    // MARK: Before the host polls

    /// Re-reads the base: mirrors its descriptors into the epoll set and arms the timerfd at its
    /// earliest deadline. Returns that deadline on our clock (`MonotonicInstant`), nil if no
    /// timer is pending.
    func refresh() -> MonotonicInstant? {
        var deadline: MonotonicInstant?
        // libevent re-reads the wall clock offset it adds to expiries every 5 s, inside whatever
        // call reads its clock; if that happened between the probe and the scan, measure again.
        for _ in 0..<3 {
            let before = libeventNow()
            let ourNow = MonotonicInstant.now()
            scanBase()
            let after = libeventNow()
            let ourElapsed = ourNow.distance(to: MonotonicInstant.now()).nanoseconds / 1_000
            let theirElapsed = microseconds(from: before, to: after)
            deadline = scan.earliest.map { earliest in
                // Expiry and probe share libevent's clock offset: their difference is exact.
                ourNow.advanced(
                    by: MonotonicInstant.Stride(
                        nanoseconds: microseconds(from: before, to: earliest) * 1_000 + deadlineSlack))
            }
            if abs(theirElapsed - ourElapsed) < 1_000 { break }
        }
        applyInterests()
        arm(deadline)
        return deadline
    }

    /// Whether the base has events already active (activated outside a dispatch, or left over by
    /// a dispatch that `stop()` ended early). Loop thread.
    var hasActiveEvents: Bool {
        event_base_get_num_events(base, UInt32(EVENT_BASE_COUNT_ACTIVE)) > 0
    }

    /// libevent's current time with its clock offset, as `event_pending` reports expiries.
    private func libeventNow() -> timeval {
        var zero = timeval(tv_sec: 0, tv_usec: 0)
        event_add(probe, &zero)
        var now = timeval(tv_sec: 0, tv_usec: 0)
        _ = event_pending(probe, Int16(EV_TIMEOUT), &now)
        event_del(probe)
        return now
    }

    private func scanBase() {
        scan.interests.removeAll(keepingCapacity: true)
        scan.events.removeAll(keepingCapacity: true)
        scan.earliest = nil
        _ = event_base_foreach_event(base, mirrorVisit, Unmanaged.passUnretained(scan).toOpaque())
        // Loop thread: nothing frees these events between the visit and here.
        for event in scan.events { scan.record(event) }
    }

    private func applyInterests() {
        // Removed from the set when their watch was cancelled: mirrored afresh if still wanted.
        if let wake {
            for fd in wake.takeForgotten() { mirrored[fd] = nil }
        }
        for (fd, interest) in scan.interests {
            guard let old = mirrored[fd] else {
                control(EpollOperation.add, fd, interest.events, fallback: EpollOperation.modify)
                continue
            }
            if old == interest { continue }
            if old.device != interest.device || old.inode != interest.inode {
                _ = cloop_epoll_control(descriptor, EpollOperation.delete, fd, 0)
                control(EpollOperation.add, fd, interest.events, fallback: EpollOperation.modify)
            } else {
                control(EpollOperation.modify, fd, interest.events, fallback: EpollOperation.add)
            }
        }
        for fd in mirrored.keys where scan.interests[fd] == nil {
            // ENOENT/EBADF when the descriptor was closed (which removed it already).
            _ = cloop_epoll_control(descriptor, EpollOperation.delete, fd, 0)
        }
        swap(&mirrored, &scan.interests)
    }

    /// `epoll_ctl` with `operation`, retried with `fallback` when the kernel's view differs
    /// (EEXIST/ENOENT). Other failures (EPERM for a regular file, EBADF) are libevent's own
    /// failures too: its epoll backend could not watch that descriptor either.
    private func control(_ operation: Int32, _ fd: Int32, _ events: UInt32, fallback: Int32) {
        if cloop_epoll_control(descriptor, operation, fd, events) == 0 { return }
        if errno == EEXIST || errno == ENOENT {
            _ = cloop_epoll_control(descriptor, fallback, fd, events)
        }
    }

    private func arm(_ deadline: MonotonicInstant?) {
        // A deadline already due makes the set readable through the wake-up eventfd: arming the
        // timerfd in the past fires its hrtimer at once, and `timerfd_settime` then waits for that
        // callback (two thirds of a host iteration's time in `loop-bench 9`).
        if let deadline, deadline <= MonotonicInstant.now() {
            _ = cloop_eventfd_signal(wakeDescriptor)
            return
        }
        // Absolute CLOCK_MONOTONIC: our instants are that clock.
        let wanted = deadline.map { $0.nanoseconds } ?? -1
        if wanted == armedDeadline { return }
        _ = cloop_timerfd_arm(timerDescriptor, wanted)
        armedDeadline = wanted
    }

    // MARK: Before a dispatch

    /// Consumes the set's readiness (epoll's ready list, the timerfd's expirations, the wake-up
    /// counter) before libevent runs what is ready; anything still ready afterwards makes the
    /// set readable again.
    func drain() {
        _ = cloop_epoll_drain(descriptor)
        if cloop_counter_drain(timerDescriptor) != 0 {
            armedDeadline = nil  // it fired, and a one-shot timerfd disarms itself
        }
    }
}

/// `epoll_ctl` operations (`EPOLL_CTL_ADD`, `_DEL`, `_MOD`).
enum EpollOperation {
    static let add: Int32 = 1
    static let delete: Int32 = 2
    static let modify: Int32 = 3
}

private func microseconds(from start: timeval, to end: timeval) -> Int64 {
    Int64(end.tv_sec - start.tv_sec) * 1_000_000 + Int64(end.tv_usec - start.tv_usec)
}

/// `event_base_foreach_event` callback: collects the event. It calls nothing of libevent's:
/// the base lock is held and is not recursive (`event_pending` here deadlocks).
private func mirrorVisit(
    _ base: OpaquePointer?, _ event: OpaquePointer?, _ context: UnsafeMutableRawPointer?
) -> Int32 {
    guard let event, let context else { return 0 }
    Unmanaged<RegistrationMirror.Scan>.fromOpaque(context).takeUnretainedValue().events.append(event)
    return 0
}
