import Foundation

/// One completed download as the local podcast feed and the media server use it: the stored
/// episode, its podcast, and the file the store says it wrote.
public struct LocalFeedEntry: Sendable, Equatable {
    /// The stored episode (title, guid, dates, the feed's enclosure).
    public var episode: StoredEpisode
    /// The podcast's title (the user's, else the channel's), `nil` when neither is known.
    public var podcastTitle: String?
    /// The final file's absolute path, as the download ledger recorded it.
    public var path: String
    /// The file's size in bytes when it completed.
    public var bytes: Int64
    /// When the download completed.
    public var finished: Date?
    /// The sanitiser's show notes as stored (`nil`: none).
    public var showNotesHTML: String?

    /// An entry.
    public init(
        episode: StoredEpisode, podcastTitle: String?, path: String, bytes: Int64, finished: Date?,
        showNotesHTML: String?
    ) {
        self.episode = episode
        self.podcastTitle = podcastTitle
        self.path = path
        self.bytes = bytes
        self.finished = finished
        self.showNotesHTML = showNotesHTML
    }

    /// The file's last path component (the media URL's readable tail).
    public var fileName: String { (path as NSString).lastPathComponent }
}
