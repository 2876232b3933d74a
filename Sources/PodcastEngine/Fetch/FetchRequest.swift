/// One feed fetch: what to get and the validators for a conditional GET.
public struct FetchRequest: Sendable, Equatable {
    /// An `http://` or `https://` URL, a `file://` URL, or a plain file path.
    public var url: String
    /// A stored `ETag`, sent as `If-None-Match` (RFC 9110 §13.1.2); `nil` sends none.
    public var etag: String?
    /// A stored `Last-Modified`, sent as `If-Modified-Since` (RFC 9110 §13.1.3); `nil` sends
    /// none. For files it is compared with the file's modification time.
    public var lastModified: String?
    /// Size, time and redirect limits.
    public var limits: FetchLimits

    /// A GET of `url`, conditional when validators are given.
    public init(url: String, etag: String? = nil, lastModified: String? = nil, limits: FetchLimits = FetchLimits()) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.limits = limits
    }
}
