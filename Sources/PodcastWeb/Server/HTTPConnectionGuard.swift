import CLibevent
import LoopScheduler

#if canImport(Glibc)
import Glibc
#endif

/// Counts and bounds `evhttp`'s server connections, which libevent 2.1 does not: every
/// connection's bufferevent is made here (`evhttp_set_bevcb`) and held with one extra reference
/// (`bufferevent_incref`), so it can be looked at until the guard lets it go.
///
/// - At `HTTPLimits.maxConnections`, a new connection closes the oldest one that is not an event
///   stream (`shutdown(2)`: evhttp sees the end and frees it), so a thousand idle sockets cannot
///   lock a real client out; the newcomer itself is closed only when all others are streams.
/// - A connection that is not a stream and has not completed a request for
///   `HTTPLimits.requestTimeout` (since it opened, or since its last request) is closed by the
///   sweep: a slowloris client that keeps libevent's per-read timeout alive with one byte at a
///   time is closed all the same. A connection whose request is still being handled is never
///   swept: its clock restarts when the reply is sent (`noteReplied`), so a slow handler (a
///   large import) does not lose its reply, and one whose reply is still being sent (its
///   output buffer not empty: a media file to a slow client) is left to libevent's write
///   timeout, which closes it only when the client stops reading.
/// - The sweep (`sweep()`, every `HTTPServer.sweepInterval`) also drops the references of
///   connections evhttp has freed: `bufferevent_free` clears the callbacks, so a bufferevent
///   whose event callback is `NULL` is gone for evhttp and its descriptor closes when we let go.
///
/// Threading: the loop's thread only (libevent calls it from the loop).
final class HTTPConnectionGuard {
    private struct Entry {
        var opened: MonotonicInstant
        var lastRequest: MonotonicInstant
        var isStream = false
        var isClosing = false
        var inProgress = false
        var requests = 0
    }
    private var entries: [OpaquePointer: Entry] = [:]
    private let limits: HTTPLimits
    private let now: () -> MonotonicInstant
    /// Connections closed to make room for newer ones (metrics).
    private(set) var evicted = 0
    /// Connections closed for taking longer than `requestTimeout` (metrics).
    private(set) var timedOut = 0

    init(limits: HTTPLimits, now: @escaping () -> MonotonicInstant = MonotonicInstant.now) {
        self.limits = limits
        self.now = now
    }

    /// Connections evhttp still serves (accepted, not yet freed, closing ones included).
    var openCount: Int { entries.keys.filter { Self.isLive($0) }.count }

    /// Makes the bufferevent for a connection being accepted (evhttp then sets its descriptor).
    func makeBufferevent(base: OpaquePointer) -> OpaquePointer? {
        guard let bev = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue)) else { return nil }
        bufferevent_incref(bev)
        let time = now()
        makeRoom()
        entries[bev] = Entry(opened: time, lastRequest: time)
        return bev
    }

    /// A complete request arrived on the connection of `bev` (its request clock restarts).
    /// Returns `true` for the connection's first request.
    @discardableResult
    func noteRequest(_ bev: OpaquePointer?) -> Bool {
        guard let bev, entries[bev] != nil else { return false }
        entries[bev]!.lastRequest = now()
        entries[bev]!.requests += 1
        entries[bev]!.inProgress = true
        return entries[bev]!.requests == 1
    }

    /// The reply to the request on `bev` was handed to evhttp: the connection's clock restarts
    /// from now (it may be swept again once idle for `requestTimeout`).
    func noteReplied(_ bev: OpaquePointer?) {
        guard let bev, entries[bev] != nil else { return }
        entries[bev]!.inProgress = false
        entries[bev]!.lastRequest = now()
    }

    /// The connection of `bev` became an event stream: no request deadline, never evicted.
    func noteStream(_ bev: OpaquePointer?) {
        guard let bev, entries[bev] != nil else { return }
        entries[bev]!.isStream = true
    }

    /// Lets go of connections evhttp freed and closes those past their request deadline.
    func sweep() {
        let time = now()
        let deadline = MonotonicInstant.Stride(seconds: limits.requestTimeout)
        for (bev, entry) in entries {
            if !Self.isLive(bev) {
                entries[bev] = nil
                _ = bufferevent_decref(bev)
            } else if !entry.isStream, !entry.isClosing, !entry.inProgress,
                entry.lastRequest.distance(to: time) > deadline
            {
                if let output = bufferevent_get_output(bev), evbuffer_get_length(output) > 0 {
                    // A reply still draining (a long media file to a slow phone): libevent's
                    // write timeout closes it if the client stops reading; the clock restarts.
                    entries[bev]!.lastRequest = time
                    continue
                }
                timedOut += 1
                close(bev)
            }
        }
    }

    /// Releases every reference (after `evhttp_free`, which freed the connections).
    func releaseAll() {
        for bev in entries.keys { _ = bufferevent_decref(bev) }
        entries.removeAll()
    }

    // At the limit: close the oldest non-stream connections until one more fits.
    private func makeRoom() {
        var live = entries.filter { Self.isLive($0.key) && !$0.value.isClosing }
        guard live.count >= limits.maxConnections else { return }
        let candidates = live.filter { !$0.value.isStream }.sorted { $0.value.opened < $1.value.opened }
        for (bev, _) in candidates where live.count >= limits.maxConnections {
            evicted += 1
            close(bev)
            live[bev] = nil
        }
    }

    // Ends the connection the way a vanished peer would: evhttp reads the end (or fails to
    // write) and frees it; the descriptor closes when the sweep drops our reference.
    private func close(_ bev: OpaquePointer) {
        entries[bev]?.isClosing = true
        let fd = bufferevent_getfd(bev)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    // evhttp's bufferevent_free cleared the callbacks: it no longer uses this connection.
    private static func isLive(_ bev: OpaquePointer) -> Bool {
        var event: bufferevent_event_cb?
        bufferevent_getcb(bev, nil, nil, &event, nil)
        return event != nil
    }
}
