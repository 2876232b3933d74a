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
    /// A `pw:interval` that was given but is not a whole number of seconds above zero (`-5`,
    /// `nan`, `1e400`, `60.5`), as written; `interval` is then `nil`, and the importer warns.
    public var rejectedInterval: String?
    /// Whether the feed's episodes are downloaded (`pw:download`, `true`/`false`, also `1`/`0`,
    /// `yes`/`no`); `nil` when absent or unreadable: follow `run`.
    public var download: Bool? = nil
    /// Downloaded files kept (`pw:keep`, 1 to 100,000); `nil` when absent or out of range.
    public var keep: Int? = nil
    /// The line of the outline's start tag in the file (where libxml2 finished reading it), for
    /// messages; `nil` for outlines not read from a file. Where an outline was read is not part
    /// of what it is: `==` and hashing leave it out, so an export read back equals the feeds.
    public var line: Int?

    /// A subscription entry.
    public init(
        url: String, title: String? = nil, interval: Int? = nil, rejectedInterval: String? = nil,
        download: Bool? = nil, keep: Int? = nil, line: Int? = nil
    ) {
        self.url = url
        self.title = title
        self.interval = interval
        self.rejectedInterval = rejectedInterval
        self.download = download
        self.keep = keep
        self.line = line
    }
}

extension OPMLOutline {
    /// Equal when URL, title, interval (given or rejected) and the download settings are; `line`
    /// is left out.
    public static func == (a: OPMLOutline, b: OPMLOutline) -> Bool {
        a.url == b.url && a.title == b.title && a.interval == b.interval && a.rejectedInterval == b.rejectedInterval
            && a.download == b.download && a.keep == b.keep
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(title)
        hasher.combine(interval)
        hasher.combine(rejectedInterval)
        hasher.combine(download)
        hasher.combine(keep)
    }
}
