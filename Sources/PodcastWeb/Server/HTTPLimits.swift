/// The limits `HTTPServer` enforces, so that no client (a slowloris dribbling headers, a
/// thousand idle sockets, a huge upload) can hold the loop, the descriptors or the memory the
/// daemon needs for polling.
public struct HTTPLimits: Sendable, Equatable {
    /// Most connections open at once (event streams included). At the limit, a new connection
    /// closes the oldest connection that is not an event stream (so idle sockets cannot lock a
    /// real client out); when every connection is a stream, the newcomer is closed. Default 256.
    public var maxConnections: Int
    /// Most event-stream (SSE) clients at once; more get `503`. Default 64.
    public var maxStreams: Int
    /// Most bytes of request line plus headers; more gets `431` from `HTTPServer`, or, beyond
    /// `evhttpHeaderBytes`, libevent's own `400` and the connection is closed. Default 8 KiB.
    public var maxHeaderBytes: Int
    /// Most request headers; more gets `431`. Default 64.
    public var maxHeaders: Int
    /// Most body bytes; more gets `413` from `HTTPServer`, or, beyond `evhttpBodyBytes`,
    /// libevent's own `413` without the body being read. Default 2 MiB (an OPML import).
    public var maxBodyBytes: Int
    /// Seconds a connection that is not an event stream may take from being opened, or from its
    /// last request, to send the next complete request; also libevent's read/write timeout for
    /// such connections (`evhttp_set_timeout`). A slow or idle client is closed after it.
    /// Default 20 s.
    public var requestTimeout: Double
    /// Seconds an event stream may fail to take a write before it is dropped
    /// (`evhttp_connection_set_timeout` on the stream). Default 60 s.
    public var streamTimeout: Double
    /// Event streams whose unsent bytes exceed this are not written to until they drain (the
    /// SSE hub then sends them the latest state instead of a queue). Default 64 KiB.
    public var streamBufferBytes: Int

    /// The header limit given to libevent (`evhttp_set_max_headers_size`): 4 × `maxHeaderBytes`,
    /// so that headers a little over ours reach `HTTPServer` and get its JSON `431`.
    public var evhttpHeaderBytes: Int { maxHeaderBytes * 4 }
    /// The body limit given to libevent (`evhttp_set_max_body_size`): 2 × `maxBodyBytes` (at
    /// least 64 KiB more), so that a body a little over ours (an OPML file a bit too large) gets
    /// `HTTPServer`'s JSON `413`; larger ones are refused by libevent before they are read.
    public var evhttpBodyBytes: Int { max(maxBodyBytes * 2, maxBodyBytes + 64 * 1024) }

    /// The limits; defaults as documented on each property.
    public init(
        maxConnections: Int = 256, maxStreams: Int = 64, maxHeaderBytes: Int = 8 * 1024, maxHeaders: Int = 64,
        maxBodyBytes: Int = 2 * 1024 * 1024, requestTimeout: Double = 20, streamTimeout: Double = 60,
        streamBufferBytes: Int = 64 * 1024
    ) {
        self.maxConnections = max(2, maxConnections)
        self.maxStreams = max(1, maxStreams)
        self.maxHeaderBytes = max(256, maxHeaderBytes)
        self.maxHeaders = max(4, maxHeaders)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.requestTimeout = max(0.05, requestTimeout)
        self.streamTimeout = max(0.05, streamTimeout)
        self.streamBufferBytes = max(1024, streamBufferBytes)
    }
}
