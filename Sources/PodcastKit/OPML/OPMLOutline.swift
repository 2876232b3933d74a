/// One subscription from (or for) an OPML file.
public struct OPMLOutline: Sendable, Equatable, Hashable, Codable {
    /// The feed URL: `xmlUrl`, falling back to `url`; trimmed, never empty.
    public var url: String
    /// The display name: `title`, falling back to `text`; `nil` when both are missing or blank,
    /// or when the name is only the URL itself (an export of a feed that had no title yet).
    public var title: String?
    /// The feed's own poll interval in seconds (`pw:interval`, podcast-watch's OPML extension,
    /// namespace `OPML.namespace`); `nil` for the default or when absent or not a positive integer.
    public var interval: Int?
    /// Whether the feed's episodes are downloaded (`pw:download`, `true`/`false`, also `1`/`0`,
    /// `yes`/`no`); `nil` when absent or unreadable: follow `run`.
    public var download: Bool? = nil
    /// Downloaded files kept (`pw:keep`, 1 to 100,000); `nil` when absent or out of range.
    public var keep: Int? = nil

    /// A subscription entry.
    public init(url: String, title: String? = nil, interval: Int? = nil, download: Bool? = nil, keep: Int? = nil) {
        self.url = url
        self.title = title
        self.interval = interval
        self.download = download
        self.keep = keep
    }
}
