import Foundation

/// One episode's download as the store keeps it (table `downloads`).
public struct DownloadRecord: Sendable, Equatable {
    /// Where a download stands.
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// Queued, not started (or waiting for a free slot).
        case pending
        /// In flight (or cut by a crash: resumed at start).
        case downloading
        /// Complete at `path`.
        case done
        /// The last attempt failed; `nextRetry` says when the next one starts (`nil`: never).
        case failed
        /// Done, then removed by retention (`--keep`).
        case deleted
    }

    /// The episode's row id (the key).
    public var episodeID: Int64
    /// The feed's id.
    public var feedID: Int64
    /// The enclosure URL.
    public var url: String
    /// The final file's absolute path; bytes go to `path + ".part"` until complete.
    public var path: String
    /// Where it stands.
    public var state: State
    /// Bytes on disk (of the part file while unfinished, of the file once done).
    public var bytes: Int64
    /// The full size in bytes when known (`Content-Length` / `Content-Range`, else the
    /// enclosure's `length`).
    public var total: Int64?
    /// The server's `ETag` for the bytes in the part file (sent as `If-Range` on resume).
    public var etag: String?
    /// The server's `Last-Modified`, the `If-Range` fallback.
    public var lastModified: String?
    /// Failed attempts so far.
    public var attempts: Int
    /// The last failure's message.
    public var error: String?
    /// When the next attempt starts (failed only).
    public var nextRetry: Date?
    /// When it was queued.
    public var queued: Date
    /// When it completed (done and deleted).
    public var finished: Date?
    /// How long the completing attempt took, in seconds.
    public var seconds: Double?
    /// The podcast's title (joined from the feed, for display).
    public var podcastTitle: String?
    /// The episode's title (joined from the episode, for display).
    public var episodeTitle: String?
    /// The feed's URL (joined, for events).
    public var feedURL: String?

    /// Set by `DownloadLedger.followEnclosure` when the URL changed: the part file's bytes are
    /// another file's, and the next attempt starts from zero. Not stored.
    public var fromZero = false

    /// Whether this download may have written its `.part` (or final file): it started once (not
    /// pending, or bytes or attempts recorded). A never-started one adopts no file it finds: that
    /// file is someone else's, and the download takes the next free name instead.
    public var mayOwnFiles: Bool { state != .pending || bytes > 0 || attempts > 0 }

    /// The byte count the disk backs: for an unfinished download (pending, downloading, failed)
    /// never more than its `.part` file holds, since that file is where a resume starts (a stored
    /// count can run ahead of it: the count is stored about once a second while the bytes wait
    /// in the writer's buffer, so a SIGKILL or power cut loses the unwritten ones). A missing
    /// part (or one that is not a regular file) backs nothing, so 0 (a resume starts from zero),
    /// unless the final file exists as a regular file: a run killed between the rename and its
    /// record has the final file instead, and `bytes` stays as stored. One or two `lstat`s.
    public var bytesOnDisk: Int64 {
        guard state == .pending || state == .downloading || state == .failed else { return bytes }
        var info = stat()
        if lstat(path + ".part", &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            return min(bytes, Int64(info.st_size))
        }
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { return bytes }
        return 0
    }
}

/// A feed's own download settings; `nil` fields follow `run`'s.
public struct FeedDownloadSettings: Sendable, Equatable {
    /// Download this feed's new episodes (`add --download` / `--no-download`).
    public var download: Bool?
    /// Completed files kept (`add --keep N`).
    public var keep: Int?

    /// Settings; `nil` follows `run`.
    public init(download: Bool? = nil, keep: Int? = nil) {
        self.download = download
        self.keep = keep
    }
}

/// What a `downloaded` hook reports of an episode beside its download record: the fields of the
/// stored episode (`nil` where the store has none).
public struct DownloadedEpisodeDetails: Sendable, Equatable {
    /// The episode's guid.
    public var guid: String?
    /// The episode's web page.
    public var link: String?
    /// The publication date.
    public var published: Date?
    /// The duration in seconds.
    public var duration: Double?
    /// The enclosure's MIME type.
    public var mimeType: String?
    /// The enclosure's declared length in bytes.
    public var length: Int64?

    /// Details; every field defaults to unknown.
    public init(
        guid: String? = nil, link: String? = nil, published: Date? = nil, duration: Double? = nil,
        mimeType: String? = nil, length: Int64? = nil
    ) {
        self.guid = guid
        self.link = link
        self.published = published
        self.duration = duration
        self.mimeType = mimeType
        self.length = length
    }
}
