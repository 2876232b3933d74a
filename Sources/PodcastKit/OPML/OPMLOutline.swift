/// One subscription from (or for) an OPML file.
public struct OPMLOutline: Sendable, Equatable, Hashable, Codable {
    /// The feed URL: `xmlUrl`, falling back to `url`; trimmed, never empty.
    public var url: String
    /// The display name: `title`, falling back to `text`; `nil` when both are missing or blank.
    public var title: String?

    /// A subscription entry.
    public init(url: String, title: String? = nil) {
        self.url = url
        self.title = title
    }
}
