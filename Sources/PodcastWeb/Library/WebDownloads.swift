import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// What the web layer serves and controls of downloads: the completed files (media URLs, the
/// local podcast feeds and their secrets), the queue (`/api/downloads`) and the actions on it
/// (the running daemon's `DownloadQueue`, when there is one).
///
/// URLs: `/media/ID/NAME` (the API's access rules) and, for podcast apps, which send no bearer
/// header, `/local/SECRET/feed.xml` and `/local/SECRET/media/ID/NAME`, where SECRET is a feed's
/// (or the library's) long random secret (`FeedStore.localFeedSecret`). They are absolute,
/// built on the public origin when there is one, else on the `Host` the client used.
///
/// Threading: the loop's thread only.
public final class WebDownloads {
    /// The store (downloads, secrets).
    public let store: FeedStore
    /// The folders files may be served from (the download folder and the fallback one).
    public let folders: [String]
    /// The running queue, if downloads are on.
    public let queue: DownloadQueue?
    /// The origin a reverse proxy serves us at, if any.
    public let publicOrigin: HTTPPublicOrigin?

    /// Where files are served from now: `folders` and the queue's current download folder
    /// (a SIGHUP may have changed it; files downloaded before stay served from the old one).
    public var servedFolders: [String] {
        var all = folders
        if let current = queue?.settings.directory, !all.contains(current) { all.append(current) }
        return all
    }

    /// Downloads of `store` served from `folders`, controlled through `queue`.
    public init(store: FeedStore, folders: [String], queue: DownloadQueue?, publicOrigin: HTTPPublicOrigin? = nil) {
        self.store = store
        self.folders = folders
        self.queue = queue
        self.publicOrigin = publicOrigin
    }

    /// `scheme://host[:port]` the client reached us at: the public origin, else `http://` and
    /// the request's `Host` (when it is a plain host name or address), else `http://localhost`.
    public func base(_ request: HTTPRequest) -> String {
        if let publicOrigin { return "\(publicOrigin)" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        if let host = request.header("host"), !host.isEmpty, host.count <= 255, host.allSatisfy(allowed.contains) {
            return "http://" + host
        }
        return "http://localhost"
    }

    /// The tail of a media URL: `/media/ID/NAME` (NAME percent-encoded).
    public static func mediaPath(_ entry: LocalFeedEntry) -> String {
        "/media/\(entry.episode.id)/" + encode(entry.fileName)
    }

    /// `name` percent-encoded as one path segment.
    public static func encode(_ name: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<"\u{80}"))
        allowed.insert(charactersIn: "-._~")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "file"
    }

    /// Feed `feedID`'s local feed URL (made with its secret on first use), `nil` while it has
    /// no completed download (`counts` from `FeedStore.completedDownloadCounts`).
    public func localFeedURL(feedID: Int64, counts: [Int64: Int], request: HTTPRequest) -> String? {
        guard counts[feedID, default: 0] > 0, let secret = try? store.localFeedSecret(scope: feedID) else {
            return nil
        }
        return base(request) + "/local/\(secret)/feed.xml"
    }

    /// `/api/downloads`: `queued` (waiting for a slot or their first attempt), `active` (in
    /// flight: `bytes`, `total`, `bytes_per_second`), `done`, `failed` (`error`, `attempts`,
    /// `next_retry`: null when given up or cancelled), `deleted`; each an array of downloads
    /// (`episode_id`, `feed_id`, `podcast_title`, `episode_title`, `state`, `bytes`, `total`,
    /// `attempts`, `error`, `next_retry`, `queued`, `finished`, `media_url` for done ones),
    /// newest queued first; and `counts` per list.
    public func listJSON(_ request: HTTPRequest) throws -> OrderedJSON {
        let records = try DownloadLedger(store: store).all()
        let live = Dictionary(
            (queue?.model.active ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lists: [String: [OrderedJSON]] = ["queued": [], "active": [], "done": [], "failed": [], "deleted": []]
        let base = self.base(request)
        for record in records {
            var fields: [(String, OrderedJSON)] = [
                ("episode_id", .int(record.episodeID)), ("feed_id", .int(record.feedID)),
                ("podcast_title", .string(WebJSON.shown(record.podcastTitle))),
                ("episode_title", .string(WebJSON.shown(record.episodeTitle))),
                ("url", .string(MaskedURL.string(record.url))), ("state", .string(record.state.rawValue)),
            ]
            let list: String
            switch record.state {
            case .pending, .downloading:
                if queue?.isActive(episodeID: record.episodeID) == true {
                    let progress = live[record.episodeID]
                    list = "active"
                    fields += [
                        ("bytes", .int(progress?.bytes ?? record.bytes)),
                        ("total", .int(progress?.total ?? record.total)),
                        ("bytes_per_second", .number(progress?.bytesPerSecond ?? 0)),
                    ]
                } else {
                    list = "queued"
                    fields += [("bytes", .int(record.bytes)), ("total", .int(record.total))]
                }
            case .done:
                list = "done"
                let name = WebDownloads.encode((record.path as NSString).lastPathComponent)
                fields += [
                    ("bytes", .int(record.bytes)), ("finished", WebJSON.date(record.finished)),
                    ("media_url", .string(base + "/media/\(record.episodeID)/" + name)),
                ]
            case .failed:
                list = "failed"
                fields += [
                    ("bytes", .int(record.bytes)), ("total", .int(record.total)), ("error", .string(record.error)),
                    ("attempts", .int(Int64(record.attempts))), ("next_retry", WebJSON.date(record.nextRetry)),
                ]
            case .deleted:
                list = "deleted"
            }
            fields.append(("queued", WebJSON.date(record.queued)))
            lists[list, default: []].append(.object(fields))
        }
        let order = ["queued", "active", "done", "failed", "deleted"]
        return .object(
            order.map { ($0, .array(lists[$0] ?? [])) }
                + [("counts", .object(order.map { ($0, .int(Int64(lists[$0]?.count ?? 0))) }))])
    }
}
