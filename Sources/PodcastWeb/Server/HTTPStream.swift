import CLibevent

/// One open chunked response (an event stream): writes go to libevent's output buffer for the
/// connection at once; `pendingBytes` says how much the client has not taken yet, so a writer
/// can hold back instead of queueing without bound. Made by `HTTPServer` for `HTTPReply.stream`.
///
/// Threading: the loop's thread only.
public final class HTTPStream {
    /// Called once when the connection ended (client gone, timeout, server closed). The stream
    /// ignores writes from then on.
    public var onClose: (() -> Void)?
    /// Called when everything written so far reached the socket (libevent's chunk callback).
    public var onDrained: (() -> Void)?
    /// `false` once the connection ended.
    public private(set) var isOpen = true
    /// Bytes written so far (what the client was sent or still has queued).
    public private(set) var bytesWritten = 0

    var onEnd: (() -> Void)?
    private var request: OpaquePointer?
    private var connection: OpaquePointer?
    /// Above this many unsent bytes `isBackedUp` is true.
    public let bufferLimit: Int

    init(request: OpaquePointer, connection: OpaquePointer, limits: HTTPLimits) {
        self.request = request
        self.connection = connection
        self.bufferLimit = limits.streamBufferBytes
    }

    /// Bytes written but not yet sent to the socket (libevent's output buffer).
    public var pendingBytes: Int {
        guard isOpen, let connection, let bev = evhttp_connection_get_bufferevent(connection),
            let output = bufferevent_get_output(bev)
        else { return 0 }
        return evbuffer_get_length(output)
    }

    /// `true` when more than `bufferLimit` bytes wait for the client.
    public var isBackedUp: Bool { pendingBytes > bufferLimit }

    /// Appends `text` to the response (one chunk). Ignored after the end.
    public func write(_ text: String) {
        guard isOpen, let request, let buffer = evbuffer_new() else { return }
        defer { evbuffer_free(buffer) }
        var text = text
        text.withUTF8 { _ = evbuffer_add(buffer, $0.baseAddress, $0.count) }
        bytesWritten += text.utf8.count
        evhttp_send_reply_chunk_with_cb(
            request, buffer,
            { _, arg in
                Unmanaged<HTTPStream>.fromOpaque(arg!).takeUnretainedValue().onDrained?()
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Ends the response (the last chunk) and forgets the connection.
    public func end() {
        guard isOpen, let request else { return }
        isOpen = false
        if let connection { evhttp_connection_set_closecb(connection, nil, nil) }
        evhttp_send_reply_end(request)
        finish()
    }

    // evhttp is freeing the connection (and the request): never touch them again.
    func connectionClosed() {
        guard isOpen else { return }
        isOpen = false
        finish()
    }

    // The server closes: evhttp_free frees the connection next, without our callbacks.
    func detach() {
        if let connection, isOpen { evhttp_connection_set_closecb(connection, nil, nil) }
        isOpen = false
        finish()
    }

    private func finish() {
        request = nil
        connection = nil
        let close = onClose
        onClose = nil
        onDrained = nil
        onEnd?()
        onEnd = nil
        close?()
    }
}
