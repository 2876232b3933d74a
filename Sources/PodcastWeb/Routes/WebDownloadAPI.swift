import Foundation
import PodcastEngine
import PodcastStore

/// The download routes of the JSON API (the running daemon's `DownloadQueue`):
///
/// | Method | Path | Answer |
/// |---|---|---|
/// | GET | `/api/downloads` | the queue and history (`WebDownloads.listJSON`) |
/// | POST | `/api/episodes/ID/download` | `202 {"episode_id": ID, "result": "queued"}` (or `requeued`, `already_queued`, `already_done`) |
/// | DELETE | `/api/episodes/ID/download` | deletes the downloaded file: `{"deleted": ID}` |
/// | POST | `/api/episodes/ID/cancel` | `{"cancelled": ID}` |
/// | POST | `/api/feeds/ID/download-all` | `202 {"feed_id": ID, "queued": N}`: the back catalogue |
///
/// `404` no such episode or feed, `409` nothing to cancel or delete (or a file kept because it
/// is no longer the one downloaded), `422` an episode without an http(s) enclosure, `503` when
/// the daemon runs without downloads.
///
/// Threading: the loop's thread only.
struct WebDownloadAPI {
    let downloads: WebDownloads
    let data: WebLibraryData

    /// `GET /api/downloads`.
    func list(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return .json(try downloads.listJSON(request))
        } catch {
            return .jsonError(500, "cannot read the downloads: \(error)")
        }
    }

    /// `POST /api/episodes/ID/download`.
    func download(_ id: String) -> HTTPResponse {
        guard let queue = downloads.queue else { return WebDownloadAPI.off }
        guard let number = Int64(id) else { return .jsonError(404, "no such episode: \(id)") }
        do {
            let result = try queue.download(episodeID: number)
            return .json(.object([("episode_id", .int(number)), ("result", .string(result.rawValue))]), status: 202)
        } catch {
            return WebDownloadAPI.failure(error)
        }
    }

    /// `POST /api/episodes/ID/cancel`.
    func cancel(_ id: String) -> HTTPResponse {
        guard let queue = downloads.queue else { return WebDownloadAPI.off }
        guard let number = Int64(id) else { return .jsonError(404, "no such episode: \(id)") }
        do {
            try queue.cancel(episodeID: number)
            return .json(.object([("cancelled", .int(number))]))
        } catch {
            return WebDownloadAPI.failure(error)
        }
    }

    /// `DELETE /api/episodes/ID/download`: answered once the file is gone (deleted off the loop).
    func delete(_ id: String) -> HTTPReply {
        guard let queue = downloads.queue else { return .response(WebDownloadAPI.off) }
        guard let number = Int64(id) else { return .response(.jsonError(404, "no such episode: \(id)")) }
        return .deferred { respond in
            do {
                try queue.deleteFile(episodeID: number) { kept in
                    if let kept {
                        respond(.jsonError(409, "the file was kept: \(kept)"))
                    } else {
                        respond(.json(.object([("deleted", .int(number))])))
                    }
                }
            } catch {
                respond(WebDownloadAPI.failure(error))
            }
        }
    }

    /// `POST /api/feeds/ID/download-all`.
    func downloadAll(_ id: String) -> HTTPResponse {
        guard let queue = downloads.queue else { return WebDownloadAPI.off }
        guard let number = Int64(id), data.library.podcast(id: number) != nil else {
            return .jsonError(404, "no such feed: \(id)")
        }
        do {
            let count = try queue.downloadBackCatalogue(feedID: number)
            return .json(.object([("feed_id", .int(number)), ("queued", .int(Int64(count)))]), status: 202)
        } catch {
            return WebDownloadAPI.failure(error)
        }
    }

    static let off = HTTPResponse.jsonError(
        503, "downloads are off: start 'podcast-watch run' with --download DIR (or add a feed with --download)")

    static func failure(_ error: Error) -> HTTPResponse {
        switch error {
        case DownloadQueue.ControlError.noSuchEpisode: return .jsonError(404, "\(error)")
        case DownloadQueue.ControlError.nothingToDownload: return .jsonError(422, "\(error)")
        case DownloadQueue.ControlError.notApplicable: return .jsonError(409, "\(error)")
        default: return .jsonError(500, "\(error)")
        }
    }
}
