import CLibevent
import Foundation
import LoopScheduler

#if canImport(Glibc)
import Glibc
#endif

/// What a request handler answers: a whole response, or the head of a stream that stays open
/// (Server-Sent Events) and is then handed to `start`.
public enum HTTPReply {
    /// Send this response; the request is done.
    case response(HTTPResponse)
    /// Send `head` (status and headers; its body is ignored) with chunked encoding and keep the
    /// connection open; `start` gets the stream at once.
    case stream(head: HTTPResponse, start: (HTTPStream) -> Void)
    /// Answer later: `start` gets a `respond` function to call once, on the loop's thread, with
    /// the response (work done off the loop in between, as the web OPML import's parse). If the
    /// server is closed first, `respond` does nothing.
    case deferred(start: (_ respond: @escaping (HTTPResponse) -> Void) -> Void)
}

/// An HTTP server on an `EventLoop`'s base: libevent's `evhttp` (HTTP/1.1, keep-alive,
/// chunked replies) with the limits of `HTTPLimits` enforced on top of it. One thread, one
/// loop: requests are read, handled and answered on the loop's thread, beside the daemon's
/// fetches and timers, so a handler must be quick (the web handlers read the in-memory view
/// models and make indexed SQLite queries).
///
/// Errors the handler never sees, answered here as JSON (`HTTPResponse.jsonError`) with
/// `errorHeaders`: `431` to more than `maxHeaders` headers or more than `maxHeaderBytes` of
/// them, `413` to a body over `maxBodyBytes`, `501` to a method other than GET, HEAD, POST and
/// DELETE, `503` to an event stream over `maxStreams`. libevent 2.1 has no error callback
/// (`evhttp_set_errorcb` is 2.2's), so evhttp is given every method it knows and looser size
/// limits (`HTTPLimits.evhttpHeaderBytes`, `evhttpBodyBytes`) and the real limits are checked
/// here, so that we answer first. evhttp still answers itself, with its own small HTML page
/// (no request text in it) and `Connection: close`, what never reaches a handler: a malformed
/// request line or header line, an unknown method token, a bad `Content-Length` or chunk,
/// headers or a body beyond those looser limits (`400`/`413`). A HEAD or TRACE request that
/// announces a body (which evhttp would not read, but parse as the next request) is refused
/// here with `400` and `Connection: close` (`unreadBodyProblem`).
///
/// Threading: create, use and release it on the loop's thread; `close()` before the loop is
/// shut down.
public final class HTTPServer {
    /// How often idle and slow connections are looked at (`HTTPConnectionGuard`), in seconds.
    public static let sweepInterval = 0.25

    /// The limits enforced.
    public let limits: HTTPLimits
    /// Answers each request (on the loop's thread).
    public var handler: (HTTPRequest) -> HTTPReply
    /// Headers added to the errors this server answers itself (the web dashboard sets its
    /// security headers here, so those errors carry them as the handler's answers do).
    public var errorHeaders: [(String, String)] = []
    /// The methods handed to `handler`; any other method evhttp parses gets `501` here.
    public static let servedMethods: Set<String> = ["GET", "HEAD", "POST", "DELETE"]
    /// The port bound by `bind` (useful after binding port 0), 0 before.
    public private(set) var port: UInt16 = 0
    /// Requests handled so far (including those answered with an error here).
    public private(set) var requestCount = 0
    /// Event streams open now.
    public var streamCount: Int { streams.count }
    /// Connections open now (event streams included).
    public var connectionCount: Int { guardian.openCount }
    /// Connections closed to make room for newer ones, or for missing `requestTimeout`.
    public var closedByLimits: Int { guardian.evicted + guardian.timedOut }

    private let loop: EventLoop
    private var http: OpaquePointer?
    private let guardian: HTTPConnectionGuard
    private var streams: [ObjectIdentifier: HTTPStream] = [:]
    private var deferred: [ObjectIdentifier: DeferredReply] = [:]
    private var sweeper: EventRegistration?

    /// A server on `loop` (not listening until `bind`). Throws `HTTPServerError.setupFailed` if
    /// libevent cannot create it.
    public convenience init(
        loop: EventLoop, limits: HTTPLimits = HTTPLimits(), handler: @escaping (HTTPRequest) -> HTTPReply
    ) throws {
        try self.init(loop: loop, limits: limits, now: MonotonicInstant.now, handler: handler)
    }

    /// The same, with the clock the connection sweep measures `requestTimeout` by (tests pass a
    /// virtual one and sweep with `sweepConnections()`).
    package init(
        loop: EventLoop, limits: HTTPLimits, now: @escaping () -> MonotonicInstant,
        handler: @escaping (HTTPRequest) -> HTTPReply
    ) throws {
        self.loop = loop
        self.limits = limits
        self.handler = handler
        self.guardian = HTTPConnectionGuard(limits: limits, now: now)
        guard let http = evhttp_new(loop.base) else { throw HTTPServerError.setupFailed("evhttp_new failed") }
        self.http = http
        // Looser than ours: requests between the two get our JSON answer rather than evhttp's page.
        evhttp_set_max_headers_size(http, limits.evhttpHeaderBytes)
        evhttp_set_max_body_size(http, limits.evhttpBodyBytes)
        var timeout = HTTPServer.timeval(limits.requestTimeout)
        evhttp_set_timeout_tv(http, &timeout)
        // Every method evhttp knows reaches `serve`, which answers the unserved ones itself.
        evhttp_set_allowed_methods(http, UInt16(HTTPServer.methodNames.keys.reduce(0) { $0 | $1 }))
        let context = Unmanaged.passUnretained(self).toOpaque()
        evhttp_set_bevcb(
            http,
            { base, arg in
                let server = Unmanaged<HTTPServer>.fromOpaque(arg!).takeUnretainedValue()
                return server.guardian.makeBufferevent(base: base!)
            }, context)
        evhttp_set_gencb(
            http,
            { request, arg in
                let server = Unmanaged<HTTPServer>.fromOpaque(arg!).takeUnretainedValue()
                server.serve(request!)
            }, context)
        sweeper = loop.scheduleRepeatingTimer(every: .seconds(HTTPServer.sweepInterval)) { [weak self] in
            self?.guardian.sweep()
        }
    }

    deinit { close() }

    /// Listens on `address` (a numeric IPv4 or IPv6 address) and `port` (0: any free port; read
    /// `port` afterwards). Throws `HTTPServerError.bindFailed` with the system's reason.
    public func bind(address: String, port: UInt16) throws {
        guard let http else { throw HTTPServerError.bindFailed("the server is closed") }
        errno = 0
        guard let handle = evhttp_bind_socket_with_handle(http, address, port) else {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "libevent refused the address"
            throw HTTPServerError.bindFailed("cannot listen on \(address) port \(port): \(reason)")
        }
        let fd = evhttp_bound_socket_get_fd(handle)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let bound = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        if bound == 0 {
            self.port = withUnsafeBytes(of: storage) { raw -> UInt16 in
                // sin_port and sin6_port are both at offset 2, in network byte order.
                return UInt16(bigEndian: raw.load(fromByteOffset: 2, as: UInt16.self))
            }
        } else {
            self.port = port
        }
    }

    /// One sweep now, as the repeating one does every `sweepInterval` (tests). Loop thread.
    package func sweepConnections() {
        guardian.sweep()
    }

    /// Stops listening and closes every connection (event streams end). Idempotent.
    public func close() {
        sweeper?.cancel()
        sweeper = nil
        guard let http else { return }
        self.http = nil
        for stream in streams.values { stream.detach() }
        streams.removeAll()
        // evhttp_free frees the requests still waiting for their answer: forget them first.
        for reply in deferred.values { reply.request = nil }
        deferred.removeAll()
        evhttp_free(http)
        guardian.releaseAll()
    }

    // MARK: Requests

    private func serve(_ request: OpaquePointer) {
        requestCount += 1
        let connection = evhttp_request_get_connection(request)
        let bev = connection.flatMap { evhttp_connection_get_bufferevent($0) }
        if guardian.noteRequest(bev), let bev {
            // First request on this connection: answers go out at once, not after the client's
            // delayed ACK (Nagle's algorithm held every keep-alive answer back ~40 ms).
            var one: Int32 = 1
            setsockopt(
                bufferevent_getfd(bev), Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let head = RequestHead(request)
        guard accepts(head, request), let body = readBody(request, method: head.method) else { return }
        let parsed = HTTPRequest(method: head.method, target: head.target, headers: head.headers, body: body)
        let reply = handler(parsed)
        // libevent caches the time at the start of an iteration: after a slow handler, evhttp's
        // write timeout would be measured from that stale time and expire before the reply left.
        event_base_update_cache_time(loop.base)
        switch reply {
        case .response(let response):
            send(response, to: request, method: head.method)
        case .deferred(let start):
            answerLater(request, method: head.method, start)
        case .stream(let streamHead, let start):
            guard streams.count < limits.maxStreams, let connection else {
                sendError(
                    503, "too many event streams (at most \(limits.maxStreams))", to: request, method: head.method)
                return
            }
            openStream(request, connection: connection, bev: bev, head: streamHead, start)
        }
    }

    // A request's line and headers as evhttp parsed them, with what the checks need.
    private struct RequestHead {
        var method: String
        var target: String
        var headers: [String: String] = [:]
        var headerCount = 0
        var badHeaderName = false
        var framing: [String: Int] = [:]  // content-length, transfer-encoding and host: how many
        var headerBytes: Int

        init(_ request: OpaquePointer) {
            let command = evhttp_request_get_command(request)
            method = HTTPServer.methodNames[command.rawValue] ?? "OTHER"
            target = evhttp_request_get_uri(request).map { String(cString: $0) } ?? "/"
            // As evhttp counts them: the request line and each header line with its CRLF.
            headerBytes = method.utf8.count + 1 + target.utf8.count + 11
            guard let list = evhttp_request_get_input_headers(request) else { return }
            var item = list.pointee.tqh_first
            while let entry = item {
                headerCount += 1
                if let key = entry.pointee.key, let value = entry.pointee.value {
                    if !HTTPServer.isToken(key) { badHeaderName = true }
                    let name = String(cString: key).lowercased()
                    let text = String(cString: value)
                    headerBytes += name.utf8.count + 2 + text.utf8.count + 2
                    if headers[name] == nil { headers[name] = text }
                    if HTTPServer.framingHeaders.contains(name) { framing[name, default: 0] += 1 }
                }
                item = entry.pointee.next.tqe_next
            }
        }
    }

    // The request's framing, header count and size, and method; a refused one is answered here.
    private func accepts(_ head: RequestHead, _ request: OpaquePointer) -> Bool {
        let method = head.method
        if let problem = (head.badHeaderName ? HTTPServer.badHeaderNameProblem : nil)
            ?? HTTPServer.framingProblem(head.framing, head.headers)
            ?? HTTPServer.unreadBodyProblem(method: method, head.headers)
        {
            // The body's end is uncertain (evhttp used the first length): nothing more is read
            // from this connection, so no smuggled request behind it is served.
            var response = HTTPResponse.jsonError(400, problem)
            response.headers += errorHeaders + [("Connection", "close")]
            send(response, to: request, method: method)
            return false
        }
        guard head.headerCount <= limits.maxHeaders else {
            sendError(431, "more than \(limits.maxHeaders) request headers", to: request, method: method)
            return false
        }
        guard head.headerBytes <= limits.maxHeaderBytes else {
            sendError(
                431, "the request line and headers are \(head.headerBytes) bytes, more than \(limits.maxHeaderBytes)",
                to: request, method: method)
            return false
        }
        guard HTTPServer.servedMethods.contains(method) else {
            sendError(
                501, "method \(method) is not implemented here; use GET, HEAD, POST or DELETE", to: request,
                method: method)
            return false
        }
        return true
    }

    // The body, or `nil` (answered with 413) when it is over the limit.
    private func readBody(_ request: OpaquePointer, method: String) -> [UInt8]? {
        guard let input = evhttp_request_get_input_buffer(request) else { return [] }
        let length = evbuffer_get_length(input)
        guard length <= limits.maxBodyBytes else {
            sendError(
                413, "the request body is \(length) bytes, more than \(limits.maxBodyBytes)", to: request,
                method: method)
            return nil
        }
        var body: [UInt8] = []
        if length > 0 {
            body = [UInt8](repeating: 0, count: length)
            _ = body.withUnsafeMutableBytes { evbuffer_remove(input, $0.baseAddress, length) }
        }
        return body
    }

    // evhttp keeps a request the user has not answered (a connection that fails in between
    // detaches it; our reply then frees it), so it is valid until we answer.
    private func answerLater(
        _ request: OpaquePointer, method: String, _ start: (@escaping (HTTPResponse) -> Void) -> Void
    ) {
        let pending = DeferredReply(request: request, method: method)
        let key = ObjectIdentifier(pending)
        deferred[key] = pending
        start { [weak self] response in
            guard let self, let request = pending.request else { return }
            pending.request = nil
            self.deferred[key] = nil
            event_base_update_cache_time(self.loop.base)
            self.send(response, to: request, method: pending.method)
        }
    }

    // An event stream: the head now, then chunks until either side ends it.
    private func openStream(
        _ request: OpaquePointer, connection: OpaquePointer, bev: OpaquePointer?, head: HTTPResponse,
        _ start: (HTTPStream) -> Void
    ) {
        guardian.noteStream(bev)
        var timeout = HTTPServer.timeval(limits.streamTimeout)
        evhttp_connection_set_timeout_tv(connection, &timeout)
        addHeaders(head, to: request)
        evhttp_send_reply_start(request, Int32(head.status), HTTPResponse.reason(head.status))
        let stream = HTTPStream(request: request, connection: connection, limits: limits)
        let key = ObjectIdentifier(stream)
        streams[key] = stream
        stream.onEnd = { [weak self] in self?.streams[key] = nil }
        evhttp_connection_set_closecb(
            connection,
            { _, arg in
                Unmanaged<HTTPStream>.fromOpaque(arg!).takeUnretainedValue().connectionClosed()
            }, Unmanaged.passUnretained(stream).toOpaque())
        start(stream)
    }

    /// evhttp's method bits and their names.
    static let methodNames: [UInt32: String] = [
        EVHTTP_REQ_GET.rawValue: "GET", EVHTTP_REQ_HEAD.rawValue: "HEAD", EVHTTP_REQ_POST.rawValue: "POST",
        EVHTTP_REQ_DELETE.rawValue: "DELETE", EVHTTP_REQ_PUT.rawValue: "PUT", EVHTTP_REQ_OPTIONS.rawValue: "OPTIONS",
        EVHTTP_REQ_TRACE.rawValue: "TRACE", EVHTTP_REQ_CONNECT.rawValue: "CONNECT", EVHTTP_REQ_PATCH.rawValue: "PATCH",
    ]

    private static let framingHeaders: Set<String> = ["content-length", "transfer-encoding", "host"]

    /// Why a request's framing or `Host` is ambiguous (RFC 9112 §6.3, §3.2), `nil` when it is
    /// not: two `Content-Length` headers (evhttp would read the first, a proxy might have used
    /// the other), a length that is not plain digits, `Content-Length` with `Transfer-Encoding`,
    /// a `Transfer-Encoding` other than one `chunked`, or more than one `Host`.
    static func framingProblem(_ counts: [String: Int], _ headers: [String: String]) -> String? {
        if counts["host", default: 0] > 1 { return "more than one Host header" }
        if counts["content-length", default: 0] > 1 { return "more than one Content-Length header" }
        if counts["transfer-encoding", default: 0] > 1 { return "more than one Transfer-Encoding header" }
        if let length = headers["content-length"] {
            if headers["transfer-encoding"] != nil { return "both Content-Length and Transfer-Encoding" }
            guard !length.isEmpty, length.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return "Content-Length must be a number of bytes"
            }
        }
        if let coding = headers["transfer-encoding"],
            coding.trimmingCharacters(in: .whitespaces).lowercased() != "chunked"
        {
            return "Transfer-Encoding must be chunked (alone)"
        }
        return nil
    }

    /// Why a request with a header name that is not an RFC 9110 token is refused. evhttp keeps
    /// the whitespace before the colon in the name (`Transfer-Encoding : chunked`), so such a
    /// header would escape the framing checks while a proxy may have honoured it; RFC 9112 §5.1
    /// says a server must reject it with 400.
    static let badHeaderNameProblem =
        "a header name contains whitespace or a character not allowed in a token (RFC 9110 §5.6.2)"

    /// Whether the C string `name` is a non-empty RFC 9110 token (`tchar`s only).
    static func isToken(_ name: UnsafePointer<CChar>) -> Bool {
        var pointer = name
        guard pointer.pointee != 0 else { return false }
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            guard byte < 128, tokenBytes[Int(byte)] else { return false }
            pointer += 1
        }
        return true
    }

    /// `tchar` (RFC 9110 §5.6.2): letters, digits and ``!#$%&'*+-.^_`|~``, indexed by byte.
    private static let tokenBytes: [Bool] = (0..<128).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }

    /// The methods evhttp 2.1.12 reads no body for (`evhttp_method_may_have_body`: HEAD and
    /// TRACE); it reads GET, DELETE, POST, PUT, PATCH, OPTIONS and CONNECT bodies.
    static let bodylessMethods: Set<String> = ["HEAD", "TRACE"]

    /// Why a request announces a body evhttp will not read, `nil` when it does not: on a
    /// `bodylessMethods` request, a `Content-Length` other than 0 or any `Transfer-Encoding`.
    /// evhttp would leave such a body on the connection and parse it as the next request (a
    /// proxy in front sees one request: request smuggling), so it is refused and the connection
    /// closed.
    static func unreadBodyProblem(method: String, _ headers: [String: String]) -> String? {
        guard bodylessMethods.contains(method) else { return nil }
        let length = headers["content-length"].map { $0.trimmingCharacters(in: .whitespaces) }
        if headers["transfer-encoding"] != nil || (length != nil && length?.allSatisfy({ $0 == "0" }) != true) {
            return "a \(method) request cannot have a body"
        }
        return nil
    }

    /// An error this server answers itself: JSON, with `errorHeaders`.
    private func sendError(_ status: Int, _ message: String, to request: OpaquePointer, method: String) {
        var response = HTTPResponse.jsonError(status, message)
        response.headers += errorHeaders
        send(response, to: request, method: method)
    }

    private func addHeaders(_ response: HTTPResponse, to request: OpaquePointer) {
        guard let output = evhttp_request_get_output_headers(request) else { return }
        for (name, value) in response.headers {
            // evhttp refuses CR/LF in values itself; names are ours.
            evhttp_add_header(output, name, value)
        }
    }

    private func send(_ response: HTTPResponse, to request: OpaquePointer, method: String) {
        var response = response
        if method == "HEAD" {
            // evhttp 2.1 sends a HEAD reply's body: the length is announced, the body dropped.
            let length = Int64(response.body.count) + (response.file?.length ?? 0)
            response.headers.append(("Content-Length", String(length)))
            response.body = []
            response.file = nil  // closes the descriptor
        }
        addHeaders(response, to: request)
        // Before the reply: evhttp may free a `Connection: close` request's connection in it.
        let bev = evhttp_request_get_connection(request).flatMap { evhttp_connection_get_bufferevent($0) }
        let buffer = evbuffer_new()
        defer { if let buffer { evbuffer_free(buffer) } }
        if let buffer, !response.body.isEmpty {
            _ = response.body.withUnsafeBytes { evbuffer_add(buffer, $0.baseAddress, $0.count) }
        }
        if let buffer, let file = response.file, let fd = file.take() {
            if file.length > 0 {
                // Kept a sendfile(2) segment all the way to the socket (whose buffer drains to
                // its fd): without the flag libevent would map or read the file here.
                evbuffer_set_flags(buffer, UInt64(EVBUFFER_FLAG_DRAINS_TO_FD))
                evbuffer_add_file(buffer, fd, file.offset, file.length)
            } else {
                Glibc.close(fd)
            }
        }
        evhttp_send_reply(request, Int32(response.status), HTTPResponse.reason(response.status), buffer)
        guardian.noteReplied(bev)
    }

    static func timeval(_ seconds: Double) -> Glibc.timeval {
        let whole = seconds.rounded(.down)
        return Glibc.timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1_000_000))
    }
}

/// A request answered later (`HTTPReply.deferred`); `request` is cleared once answered or when
/// the server closes.
private final class DeferredReply {
    var request: OpaquePointer?
    let method: String

    init(request: OpaquePointer, method: String) {
        self.request = request
        self.method = method
    }
}

/// Why the web server could not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
    /// libevent could not create the server.
    case setupFailed(String)
    /// The address could not be bound (in use, not local, permission).
    case bindFailed(String)

    /// The message for the user.
    public var description: String {
        switch self {
        case .setupFailed(let message), .bindFailed(let message): return message
        }
    }
}
