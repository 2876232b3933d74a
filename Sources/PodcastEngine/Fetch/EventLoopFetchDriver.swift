import LoopScheduler

/// A `FetchLoopDriver` on an `EventLoop`: `watch(fd:events:)` for curl's sockets and
/// `scheduleTimer(after:)` for its single timer. Dropping a registration cancels it.
final class EventLoopFetchDriver: FetchLoopDriver {
    let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
    }

    func watch(fd: Int32, read: Bool, write: Bool, _ handler: @escaping (Bool, Bool) -> Void) -> Cancellable {
        var events: IOEvents = []
        if read { events.insert(.read) }
        if write { events.insert(.write) }
        return loop.watch(fd: fd, events: events) { ready in
            handler(ready.contains(.read), ready.contains(.write))
        }
    }

    func timer(milliseconds: Int, _ handler: @escaping () -> Void) -> Cancellable {
        loop.scheduleTimer(after: .milliseconds(milliseconds), handler)
    }
}
