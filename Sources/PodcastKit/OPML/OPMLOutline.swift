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

    /// A subscription entry.
    public init(url: String, title: String? = nil, interval: Int? = nil) {
        self.url = url
        self.title = title
        self.interval = interval
    }
}
