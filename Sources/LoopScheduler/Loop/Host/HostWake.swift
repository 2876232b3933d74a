import CLoopSupport
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The eventfd that wakes a host loop driving an `EventLoop` (see `HostLoopDriver`) when work
/// reaches the loop outside the host's dispatch of it.
///
/// libevent 2.1 wakes a base from another thread only while the base sits in `event_base_loop`
/// (its `EVBASE_NEED_NOTIFY` test). A host-driven base is outside it while the host sleeps in its
/// own poll, so `event_active`/`event_add` from another thread (or from the loop's thread between
/// two dispatches, say a GTK button handler) would leave the host asleep. The loop's own entry
/// points (`execute`, `LoopScheduler.schedule`, `LoopEventSource.signal`, `stop`) call `notify()`
/// after they touched the base.
///
/// The descriptor is created on the first `attach()` and kept until the loop goes away, so a
/// `notify()` racing with a detach writes to our eventfd and never to a reused descriptor number.
final class HostWake: @unchecked Sendable {
    /// Our eventfd, -1 until the first `attach()`.
    private let descriptor = Atomic<Int32>(-1)
    private let attached = Atomic<Bool>(false)
    /// The thread inside `HostLoopDriver.dispatch()`, 0 when none: work that thread queues runs
    /// in that very dispatch (libevent's `EVLOOP_ONCE` goes on while events are active), so it
    /// needs no wake-up, and writing one would cost the host an idle iteration.
    private let dispatchingThread = Atomic<UInt>(0)
    /// The attached driver's epoll set (-1 when none) and the descriptors removed from it by
    /// `forget(descriptor:)` since its last refresh. Guarded by `lock`, so that no `forget` on
    /// another thread can reach an epoll number the driver has closed (and the kernel reused).
    /// `epoll_ctl` never waits for a callback, so it may run under the lock.
    private let lock = Lock()
    private var mirrorDescriptor: Int32 = -1
    private var forgotten: [Int32] = []

    deinit {
        let fd = descriptor.load(ordering: .relaxed)
        if fd >= 0 { close(fd) }
    }

    /// Wakes the host if one drives the loop and the caller is not inside its dispatch. Any
    /// thread; one relaxed atomic load when no host is attached.
    @inline(__always)
    func notify() {
        guard attached.load(ordering: .acquiring) else { return }
        notifyAttached()
    }

    @inline(never)
    private func notifyAttached() {
        if dispatchingThread.load(ordering: .acquiring) == currentThreadID() { return }
        // EAGAIN only when the counter is at its maximum, and then the descriptor is readable.
        _ = cloop_eventfd_signal(descriptor.load(ordering: .acquiring))
    }

    /// Claims the wake-up for one host; returns its descriptor (readable after a `notify()`).
    /// - Throws: `HostLoopError.alreadyDriven` when another driver holds it,
    ///   `.setupFailed` when no eventfd can be created.
    func attach() throws -> Int32 {
        var fd = descriptor.load(ordering: .acquiring)
        if fd < 0 {
            fd = cloop_eventfd_create()
            guard fd >= 0 else { throw HostLoopError.setupFailed(call: "eventfd", errno: errno) }
            let (stored, existing) = descriptor.compareExchange(
                expected: -1, desired: fd, ordering: .acquiringAndReleasing)
            if !stored {
                close(fd)
                fd = existing
            }
        }
        guard attached.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { throw HostLoopError.alreadyDriven }
        return fd
    }

    /// Releases the wake-up; later `notify()` and `forget(descriptor:)` calls do nothing.
    func detach() {
        attached.store(false, ordering: .releasing)
        lock.withLock {
            mirrorDescriptor = -1
            forgotten.removeAll()
        }
    }

    /// Names the attached driver's epoll set, for `forget(descriptor:)`. Loop thread.
    func attachMirror(_ epoll: Int32) {
        lock.withLock { mirrorDescriptor = epoll }
    }

    /// A watch of `descriptor` is going away (`EventRegistration.cancel()`, any thread): remove
    /// the descriptor from the driver's epoll set now, while the number still names the file the
    /// set holds. epoll keeps an entry until every descriptor of its open file is closed, so once
    /// the caller closes a number whose file is shared (a `dup`, a forked child) the entry can no
    /// longer be removed by number and would keep the host awake for nothing. The driver's next
    /// refresh adds the descriptor back if another event still waits on it; with `wakeHost` (a
    /// cancel from another thread, while the host may sleep) the host is woken for that refresh.
    /// On the loop's thread the host prepares again before it polls anyway.
    func forget(descriptor: Int32, wakeHost: Bool) {
        guard attached.load(ordering: .acquiring) else { return }
        let removed = lock.withLock { () -> Bool in
            guard mirrorDescriptor >= 0 else { return false }
            _ = cloop_epoll_control(mirrorDescriptor, EpollOperation.delete, descriptor, 0)
            forgotten.append(descriptor)
            return true
        }
        if removed, wakeHost { notify() }
    }

    /// The descriptors `forget(descriptor:)` removed since the last call. Loop thread.
    func takeForgotten() -> [Int32] {
        lock.withLock {
            defer { forgotten.removeAll(keepingCapacity: true) }
            return forgotten
        }
    }

    /// Empties the counter (the host saw it). Loop thread.
    func drain() {
        _ = cloop_counter_drain(descriptor.load(ordering: .relaxed))
    }

    func beginDispatch() {
        dispatchingThread.store(currentThreadID(), ordering: .releasing)
    }

    func endDispatch() {
        dispatchingThread.store(0, ordering: .releasing)
    }
}
