import CLibevent
import Foundation

/// An in-process HTTP/1.1 server on 127.0.0.1 (ephemeral port) for integration tests, built on
/// libevent's evhttp. It runs its own `event_base` on its own thread, so a client loop under test
/// can run on the test's thread. Routes are programmable from any thread; handlers run on the
/// server thread.
package final class TestHTTPServer: @unchecked Sendable {
    /// A received request.
    package struct Request: Sendable {
        package var method: String
        /// Path and query as sent.
        package var uri: String
        /// Header names lower-cased.
        package var headers: [String: String]

        /// A request as received.
        package init(method: String, uri: String, headers: [String: String]) {
            self.method = method
            self.uri = uri
            self.headers = headers
        }
    }

    /// What to answer.
    package struct Response: Sendable {
        package var status: Int
        package var headers: [(String, String)] = []
        package var body: [UInt8] = []
        /// Seconds to wait before answering (an evtimer on the server loop).
        package var delay: Double = 0
        /// Send with chunked transfer encoding (no Content-Length).
        package var chunked = false
        /// Send the body in timed pieces (with its Content-Length), optionally cutting the
        /// connection part-way: slow and interrupted downloads.
        package var stream: Stream? = nil

        /// An answer: `status`, then the rest as the stored properties say.
        package init(
            status: Int, headers: [(String, String)] = [], body: [UInt8] = [], delay: Double = 0, chunked: Bool = false,
            stream: Stream? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.chunked = chunked
            self.stream = stream
        }

        /// How a streamed body goes out.
        package struct Stream: Sendable {
            /// Bytes per piece.
            package var pieceBytes: Int
            /// Seconds between pieces.
            package var interval: Double
            /// Shut the connection down once this many body bytes were sent (nil: send it all).
            package var cutAfter: Int? = nil

            /// Pieces of `pieceBytes` every `interval` seconds, cut after `cutAfter` bytes if set.
            package init(pieceBytes: Int, interval: Double, cutAfter: Int? = nil) {
                self.pieceBytes = pieceBytes
                self.interval = interval
                self.cutAfter = cutAfter
            }
        }

        /// A static file answered as a server with (`ranges`) or without byte-range support
        /// would: `Range: bytes=N-` gets a 206 with `Content-Range` (or 416 past the end), and
        /// `If-Range` that does not match `etag` gets the whole file (RFC 9110 §14).
        package static func file(
            _ data: [UInt8], for request: Request, etag: String? = nil, ranges: Bool = true,
            contentType: String = "audio/mpeg"
        ) -> Response {
            var headers = [("Content-Type", contentType)]
            if let etag { headers.append(("ETag", etag)) }
            if ranges { headers.append(("Accept-Ranges", "bytes")) }
            guard ranges, let range = request.headers["range"], range.hasPrefix("bytes="),
                let start = Int(range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false).first ?? "")
            else {
                return Response(status: 200, headers: headers, body: data)
            }
            if let ifRange = request.headers["if-range"], ifRange != etag {
                return Response(status: 200, headers: headers, body: data)
            }
            guard start < data.count else {
                return Response(status: 416, headers: [("Content-Range", "bytes */\(data.count)")])
            }
            headers.append(("Content-Range", "bytes \(start)-\(data.count - 1)/\(data.count)"))
            return Response(status: 206, headers: headers, body: Array(data[start...]))
        }

        package static func ok(
            _ body: String, contentType: String = "application/rss+xml", headers: [(String, String)] = []
        )
            -> Response
        {
            Response(status: 200, headers: [("Content-Type", contentType)] + headers, body: Array(body.utf8))
        }
        package static func status(_ code: Int, _ body: String = "") -> Response {
            Response(status: code, headers: [("Content-Type", "text/plain")], body: Array(body.utf8))
        }
        package static func redirect(_ code: Int, to location: String) -> Response {
            Response(status: code, headers: [("Location", location)])
        }
        /// `body` gzip-encoded with `Content-Encoding: gzip`.
        package static func gzip(_ body: String, contentType: String = "application/rss+xml") -> Response {
            Response(
                status: 200, headers: [("Content-Type", contentType), ("Content-Encoding", "gzip")],
                body: TestGzip.stored(Array(body.utf8)))
        }
    }

    package typealias Handler = @Sendable (Request) -> Response

    private let base: OpaquePointer
    private let http: OpaquePointer
    package private(set) var port: Int = 0
    private let lock = NSLock()
    private var routes: [String: Handler] = [:]
    private var counts: [String: Int] = [:]
    private var log: [Request] = []
    private let finished = DispatchSemaphore(value: 0)
    private let pieces = PieceCount()

    /// Pieces of streamed bodies (`Response.stream`) handed to evhttp so far, all requests
    /// together: tests wait for this event rather than for a stretch of time.
    package var streamedPieces: Int { pieces.value }

    /// Replies held back by `Response.delay` that the server has since sent (or tried to send,
    /// the client gone): a test waits for this event instead of the delay's length in real time.
    package var delayedRepliesSent: Int { delayedSent.value }
    private let delayedSent = PieceCount()

    /// A count the server thread raises and the test thread reads.
    final class PieceCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func add() { lock.withLock { count += 1 } }
    }
    private var stopped = false

    package init() throws {
        // evhttp writes the rest of a large body to a client that already hung up (the oversize
        // and bomb tests): that must be EPIPE for the server, not SIGPIPE for the test process.
        signal(SIGPIPE, SIG_IGN)
        evthread_use_pthreads()
        guard let base = event_base_new() else { throw ServerError("event_base_new failed") }
        guard let http = evhttp_new(base) else { throw ServerError("evhttp_new failed") }
        self.base = base
        self.http = http
        guard let bound = evhttp_bind_socket_with_handle(http, "127.0.0.1", 0) else {
            throw ServerError("bind 127.0.0.1:0 failed")
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = evhttp_bound_socket_get_fd(bound)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        evhttp_set_allowed_methods(http, UInt16(EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_HEAD.rawValue))
        evhttp_set_gencb(
            http,
            { request, context in
                guard let request, let context else { return }
                Unmanaged<TestHTTPServer>.fromOpaque(context).takeUnretainedValue().handle(request)
            }, Unmanaged.passUnretained(self).toOpaque())
        // The thread must not retain `self`, so `deinit` can stop it.
        let loopBase = UncheckedPointer(pointer: base)
        let finished = self.finished
        let thread = Thread {
            event_base_loop(loopBase.pointer, EVLOOP_NO_EXIT_ON_EMPTY)
            finished.signal()
        }
        thread.name = "TestHTTPServer"
        thread.start()
    }

    deinit {
        stop()
        evhttp_free(http)
        event_base_free(base)
    }

    /// Stops the server thread and waits for it.
    package func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // A loopbreak before the thread enters event_base_loop would be forgotten (the loop
        // clears the flag on entry), so break from inside the loop with a zero-delay event.
        var now = timeval(tv_sec: 0, tv_usec: 0)
        event_base_once(
            base, -1, Int16(EV_TIMEOUT),
            { _, _, context in
                guard let context else { return }
                event_base_loopbreak(OpaquePointer(context))
            }, UnsafeMutableRawPointer(base), &now)
        finished.wait()
    }

    /// `http://127.0.0.1:<port><path>`.
    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Answers requests for `path` (exact URI, else path without query) with `handler`.
    package func route(_ path: String, _ handler: @escaping Handler) {
        lock.withLock { routes[path] = handler }
    }

    /// Answers requests for `path` with a fixed response.
    package func route(_ path: String, _ response: Response) {
        route(path) { _ in response }
    }

    /// Serves `body` with `ETag` and `Last-Modified`, answering 304 when the request's
    /// `If-None-Match` equals the ETag or its `If-Modified-Since` equals the date.
    package func routeConditional(_ path: String, body: String, etag: String, lastModified: String) {
        route(path) { request in
            if request.headers["if-none-match"] == etag || request.headers["if-modified-since"] == lastModified {
                return Response(status: 304, headers: [("ETag", etag), ("Last-Modified", lastModified)])
            }
            return .ok(body, headers: [("ETag", etag), ("Last-Modified", lastModified)])
        }
    }

    /// Requests received for `path` (matched like routes).
    package func requestCount(_ path: String) -> Int { lock.withLock { counts[path] ?? 0 } }

    /// Every request received, in order.
    package var requests: [Request] { lock.withLock { log } }

    private func handle(_ req: OpaquePointer) {
        let uri = String(cString: evhttp_request_get_uri(req))
        let path = String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        var headers: [String: String] = [:]
        var entry = evhttp_request_get_input_headers(req)?.pointee.tqh_first
        while let e = entry {
            headers[String(cString: e.pointee.key).lowercased()] = String(cString: e.pointee.value)
            entry = e.pointee.next.tqe_next
        }
        let method = evhttp_request_get_command(req) == EVHTTP_REQ_HEAD ? "HEAD" : "GET"
        let request = Request(method: method, uri: uri, headers: headers)
        let handler = lock.withLock { () -> Handler? in
            log.append(request)
            let key = routes[uri] != nil ? uri : path
            counts[key, default: 0] += 1
            return routes[key]
        }
        let response = handler?(request) ?? .status(404, "no route for \(uri)")
        if response.delay > 0 {
            let pending = PendingReply(request: req, response: response, pieces: pieces, sent: delayedSent)
            let box = Unmanaged.passRetained(pending).toOpaque()
            var tv = timeval(
                tv_sec: Int(response.delay), tv_usec: Int((response.delay - response.delay.rounded(.down)) * 1e6))
            event_base_once(
                base, -1, Int16(EV_TIMEOUT),
                { _, _, context in
                    guard let context else { return }
                    let pending = Unmanaged<PendingReply>.fromOpaque(context).takeRetainedValue()
                    TestHTTPServer.send(pending.response, to: pending.request, pieces: pending.pieces)
                    pending.sent.add()
                }, box, &tv)
        } else {
            TestHTTPServer.send(response, to: req, pieces: pieces)
        }
    }

    private static func send(_ response: Response, to req: OpaquePointer, pieces: PieceCount) {
        let out = evhttp_request_get_output_headers(req)
        for (name, value) in response.headers { evhttp_add_header(out, name, value) }
        if let stream = response.stream {
            StreamedReply(request: req, response: response, stream: stream, pieces: pieces).begin()
            return
        }
        let buffer = evbuffer_new()
        defer { evbuffer_free(buffer) }
        if response.chunked {
            evhttp_send_reply_start(req, Int32(response.status), nil)
            var offset = 0
            while offset < response.body.count {
                let n = min(16_384, response.body.count - offset)
                response.body.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress! + offset, n) }
                evhttp_send_reply_chunk(req, buffer)
                offset += n
            }
            evhttp_send_reply_end(req)
        } else {
            response.body.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
            evhttp_send_reply(req, Int32(response.status), nil, buffer)
        }
    }

    /// A body sent piece by piece on the server's loop; it stops touching the request once the
    /// connection closed (evhttp frees it then) or once it cut the connection itself.
    private final class StreamedReply {
        let request: OpaquePointer
        let body: [UInt8]
        let stream: Response.Stream
        let pieces: PieceCount
        var offset = 0
        var closed = false

        init(request: OpaquePointer, response: Response, stream: Response.Stream, pieces: PieceCount) {
            self.pieces = pieces
            self.request = request
            self.body = response.body
            self.stream = stream
            evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Length", String(body.count))
            self.status = response.status
        }
        let status: Int

        func begin() {
            let me = Unmanaged.passRetained(self)  // released when the stream ends
            if let connection = evhttp_request_get_connection(request) {
                evhttp_connection_set_closecb(
                    connection,
                    { _, context in
                        guard let context else { return }
                        Unmanaged<StreamedReply>.fromOpaque(context).takeUnretainedValue().closed = true
                    }, me.toOpaque())
            }
            evhttp_send_reply_start(request, Int32(status), nil)
            next()
        }

        private func next() {
            let base = evhttp_connection_get_base(evhttp_request_get_connection(request))
            var tv = timeval(
                tv_sec: Int(stream.interval), tv_usec: Int((stream.interval - stream.interval.rounded(.down)) * 1e6))
            event_base_once(
                base, -1, Int16(EV_TIMEOUT),
                { _, _, context in
                    guard let context else { return }
                    Unmanaged<StreamedReply>.fromOpaque(context).takeUnretainedValue().piece()
                }, Unmanaged.passUnretained(self).toOpaque(), &tv)
        }

        private func piece() {
            if closed {
                Unmanaged.passUnretained(self).release()
                return
            }
            let limit = min(body.count, stream.cutAfter ?? body.count)
            let n = min(stream.pieceBytes, limit - offset)
            if n > 0 {
                let buffer = evbuffer_new()
                body.withUnsafeBytes { _ = evbuffer_add(buffer, $0.baseAddress! + offset, n) }
                evhttp_send_reply_chunk(request, buffer)
                evbuffer_free(buffer)
                offset += n
                pieces.add()
            }
            if offset >= body.count {
                evhttp_connection_set_closecb(evhttp_request_get_connection(request), nil, nil)
                evhttp_send_reply_end(request)
                Unmanaged.passUnretained(self).release()
            } else if offset >= limit {
                // Cut: the bytes sent so far reach the client, then the connection ends.
                let connection = evhttp_request_get_connection(request)
                let bev = evhttp_connection_get_bufferevent(connection)
                let fd = bufferevent_getfd(bev)
                if let output = bufferevent_get_output(bev), evbuffer_get_length(output) > 0 {
                    next()  // let the queued bytes go out first
                    return
                }
                shutdown(fd, Int32(SHUT_RDWR))
                closed = true
                next()  // released on the next pass, after evhttp noticed
            } else {
                next()
            }
        }
    }

    private final class PendingReply {
        let request: OpaquePointer
        let response: Response
        let pieces: PieceCount
        let sent: PieceCount
        init(request: OpaquePointer, response: Response, pieces: PieceCount, sent: PieceCount) {
            self.request = request
            self.response = response
            self.pieces = pieces
            self.sent = sent
        }
    }

    private struct UncheckedPointer: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    struct ServerError: Error, CustomStringConvertible {
        package var description: String
        package init(_ d: String) { description = d }
    }
}
