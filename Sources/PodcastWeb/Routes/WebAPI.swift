import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// The JSON API under `/api/` (shapes in `WebJSON`; documented with `curl` examples in the
/// manual, docs/PODCAST-WATCH.md). Errors are `HTTPResponse.jsonError` with a fitting status:
/// `400` malformed input, `404` no such feed, `409` already subscribed, `415` a body that is not
/// JSON, `422` a URL that cannot be subscribed to.
///
/// Threading: the loop's thread only.
struct WebAPI {
    let data: WebLibraryData
    let control: WebControl
    let metrics: WebMetrics
    /// Downloads, for `local_feed_url` and `media_url` (nil: those keys are left out).
    var downloads: WebDownloads? = nil

    /// Most episodes per page, and the default page size.
    static let maxLimit = 500
    static let defaultLimit = 50

    /// `GET /api/feeds`: `{"feeds": [...], "counts": {...}}`; with downloads, each feed ends
    /// with `local_feed_url` (its local podcast feed, null until something is downloaded).
    func feeds(_ request: HTTPRequest) -> HTTPResponse {
        let podcasts = data.library.snapshots
        let completed = downloads.flatMap { try? $0.store.completedDownloadCounts() } ?? [:]
        // The same text as `.json(.object([("feeds", …), ("counts", …)]))`, from cached feeds.
        var body = Array(#"{"feeds":["#.utf8)
        for (i, p) in podcasts.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body += withLocalFeed(data.feedBytes(p), p.id, completed, request)
        }
        body += #"],"counts":"#.utf8
        body += WebJSON.counts(podcasts, totalNew: data.library.totalNew).utf8Bytes
        body += "}\n".utf8
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
    }

    /// `GET /api/feeds/ID`: `{"feed": {...}}`.
    func feed(_ id: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let id = Int64(id), let podcast = data.library.podcast(id: id) else {
            return .jsonError(404, "no such feed: \(id)")
        }
        let completed = downloads.flatMap { try? $0.store.completedDownloadCounts() } ?? [:]
        let feed = withLocalFeed(data.feedJSON(podcast).utf8Bytes, id, completed, request)
        return HTTPResponse(
            status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
            body: Array(#"{"feed":"#.utf8) + feed + Array("}\n".utf8))
    }

    // A feed object's bytes with `local_feed_url` added last (unchanged without downloads).
    private func withLocalFeed(_ object: [UInt8], _ id: Int64, _ completed: [Int64: Int], _ request: HTTPRequest)
        -> [UInt8]
    {
        guard let downloads, object.last == UInt8(ascii: "}") else { return object }
        let url = downloads.localFeedURL(feedID: id, counts: completed, request: request)
        return object.dropLast() + Array(#","local_feed_url":"#.utf8) + OrderedJSON.string(url).utf8Bytes + [
            UInt8(ascii: "}")
        ]
    }

    // An episode object with `media_url` added (null when not downloaded; unchanged without
    // downloads).
    private func withMediaURL(_ object: OrderedJSON, _ id: Int64, _ paths: [Int64: String], _ request: HTTPRequest)
        -> OrderedJSON
    {
        guard let downloads, case .object(var fields) = object else { return object }
        let url = paths[id].map {
            downloads.base(request) + "/media/\(id)/" + WebDownloads.encode(($0 as NSString).lastPathComponent)
        }
        fields.append(("media_url", .string(url)))
        return .object(fields)
    }

    /// `POST /api/feeds` with `{"url": "https://...", "title": "optional"}`: `201` and
    /// `{"feed": {...}}` (status `waiting` or `polling`: the first poll starts at once).
    func add(_ request: HTTPRequest) -> HTTPResponse {
        guard request.contentType == "application/json" else {
            return .jsonError(415, "send the feed as JSON: {\"url\": \"https://...\"}")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
            return .jsonError(400, "the body is not a JSON object")
        }
        guard let url = object["url"] as? String, !url.isEmpty else {
            return .jsonError(400, "\"url\" (a string) is required")
        }
        let title = object["title"] as? String
        if object["title"] != nil && !(object["title"] is String) && !(object["title"] is NSNull) {
            return .jsonError(400, "\"title\" must be a string")
        }
        do {
            let record = try control.addFeed(url: url, title: title?.isEmpty == true ? nil : title)
            let podcast =
                data.library.podcast(id: record.id) ?? Podcast(id: record.id, url: record.url, title: record.title)
            var response = HTTPResponse.json(.object([("feed", data.feedJSON(podcast))]), status: 201)
            response.headers.append(("Location", "/api/feeds/\(record.id)"))
            return response
        } catch {
            return WebAPI.failure(error)
        }
    }

    /// `DELETE /api/feeds/ID`: `{"removed": ID}`.
    func remove(_ id: String) -> HTTPResponse {
        guard let number = Int64(id) else { return .jsonError(404, "no such feed: \(id)") }
        do {
            try control.removeFeed(id: number)
            return .json(.object([("removed", .int(number))]))
        } catch {
            return WebAPI.failure(error)
        }
    }

    /// `POST /api/feeds/ID/poll`: `202` and `{"polling": ID}`.
    func poll(_ id: String) -> HTTPResponse {
        guard let number = Int64(id), control.pollFeed(id: number) else {
            return .jsonError(404, "no such feed (or it is disabled): \(id)")
        }
        return .json(.object([("polling", .int(number))]), status: 202)
    }

    /// `POST /api/poll`: `202` and `{"polling": "all"}`.
    func pollAll() -> HTTPResponse {
        control.pollAll()
        return .json(.object([("polling", .string("all"))]), status: 202)
    }

    /// `GET /api/episodes/ID`: `{"episode": {...}}` (`WebJSON.episodeDetail`: the episode with
    /// its sanitised `show_notes_html`); `404` when there is no such episode.
    func episode(_ id: String, _ request: HTTPRequest) -> HTTPResponse {
        guard let number = Int64(id) else { return .jsonError(404, "no such episode: \(id)") }
        do {
            guard let found = try data.episode(id: number) else { return .jsonError(404, "no such episode: \(number)") }
            let paths = try downloads?.store.completedDownloadPaths(episodeIDs: [number]) ?? [:]
            let detail = WebJSON.episodeDetail(found.episode, showNotesHTML: found.showNotesHTML)
            return .json(.object([("episode", withMediaURL(detail, number, paths, request))]))
        } catch {
            return .jsonError(500, "cannot read episode \(number): \(error)")
        }
    }

    /// `GET /api/episodes?feed=ID&since=ISO8601&limit=N&offset=M`: stored episodes newest
    /// first; `since` keeps those first seen after that time, compared in whole milliseconds
    /// as `first_seen` is shown (so a page's newest `first_seen` as `since` skips that page); `limit` 1...500 (default 50);
    /// `{"episodes": [...], "limit": N, "offset": M, "next_offset": M+N or null}`.
    func episodes(_ request: HTTPRequest) -> HTTPResponse {
        var feedID: Int64?
        if let raw = request.query["feed"] {
            // The rule path ids follow (`WebRouter.isID`): digits only, no sign, no leading zero.
            guard WebRouter.isID(raw), let id = Int64(raw) else {
                return .jsonError(400, "feed must be a feed id, not '\(raw)'")
            }
            guard data.library.podcast(id: id) != nil else { return .jsonError(404, "no such feed: \(id)") }
            feedID = id
        }
        var since: Date?
        if let raw = request.query["since"] {
            let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
            guard let date = (try? withFraction.parse(raw)) ?? (try? Date(raw, strategy: .iso8601)) else {
                return .jsonError(
                    400, "since must be an ISO 8601 time such as 2024-01-31T12:00:00.125Z, not '\(raw)'")
            }
            since = date
        }
        var limit = WebAPI.defaultLimit
        if let raw = request.query["limit"] {
            guard let n = Int(raw), (1...WebAPI.maxLimit).contains(n) else {
                return .jsonError(400, "limit must be a whole number from 1 to \(WebAPI.maxLimit), not '\(raw)'")
            }
            limit = n
        }
        var offset = 0
        if let raw = request.query["offset"] {
            guard let n = Int(raw), n >= 0, n <= 1_000_000_000 else {
                return .jsonError(400, "offset must be a whole number >= 0, not '\(raw)'")
            }
            offset = n
        }
        do {
            let page = try data.episodes(feedID: feedID, since: since, limit: limit, offset: offset)
            let paths = try downloads?.store.completedDownloadPaths(episodeIDs: page.episodes.map(\.id)) ?? [:]
            let rows = page.episodes.map { withMediaURL(WebJSON.episode($0), $0.id, paths, request) }
            return .json(
                .object([
                    ("episodes", .array(rows)), ("limit", .int(limit)),
                    ("offset", .int(offset)), ("next_offset", page.hasMore ? .int(offset + limit) : .null),
                ]))
        } catch {
            return .jsonError(500, "cannot read the episodes: \(error)")
        }
    }

    /// `POST /api/import` with `{"opml": "<opml ...>"}`: `{"added": N, "existing": N, "skipped": N}`.
    /// The body is decoded and parsed on `offLoop` (`WebImport`); the subscriptions are made
    /// back on the loop.
    func importOPML(_ request: HTTPRequest, _ offLoop: OffLoopExecutor) -> HTTPReply {
        guard request.contentType == "application/json" else {
            return .response(.jsonError(415, "send the OPML as JSON: {\"opml\": \"<opml>...</opml>\"}"))
        }
        let body = request.body
        let control = self.control
        return .deferred { respond in
            WebImport.run(on: offLoop, { WebImport.outlines(jsonBody: body) }) { parsed in
                respond(WebAPI.imported(parsed, control))
            }
        }
    }

    /// The answer to an import once parsed: the summary, or the error for `parsed`'s failure.
    static func imported(_ parsed: Result<[OPMLOutline], WebImport.Failure>, _ control: WebControl) -> HTTPResponse {
        switch parsed {
        case .failure(.notJSON): return .jsonError(400, "\"opml\" (a string) is required")
        case .failure(.notOPML(let error)): return failure(error)
        case .failure(.tooManyOutlines(let count)):
            return failure(WebControlError.tooManyOutlines(count: count, cap: WebImportSummary.maxOutlines))
        case .success(let outlines):
            do {
                let summary = try control.importOutlines(outlines)
                return .json(
                    .object([
                        ("added", .int(summary.added)), ("existing", .int(summary.existing)),
                        ("skipped", .int(summary.skipped)),
                    ]))
            } catch {
                return failure(error)
            }
        }
    }

    /// `GET /export.opml`: the subscriptions as an OPML download; feed URLs masked as `list`
    /// shows them unless `revealingCredentials` (the request carried the configured token).
    func exportOPML(revealingCredentials: Bool) -> HTTPResponse {
        do {
            var response = HTTPResponse.text(
                try control.exportOPML(revealingCredentials: revealingCredentials), type: "text/x-opml; charset=utf-8")
            response.headers.append(("Content-Disposition", "attachment; filename=\"podcast-watch.opml\""))
            return response
        } catch {
            return .jsonError(500, "cannot read the subscriptions: \(error)")
        }
    }

    /// The JSON error for a failed action.
    static func failure(_ error: Error) -> HTTPResponse {
        switch error {
        case StoreError.alreadySubscribed(let url, let id):
            return .jsonError(409, "already subscribed to \(MaskedURL.string(url)) (feed \(id))")
        case StoreError.noSuchFeed(let key):
            return .jsonError(404, "no such feed: \(key)")
        case StoreError.invalidURL(let url, let reason):
            return .jsonError(422, "cannot subscribe to \(MaskedURL.string(url)): \(reason)")
        case let error as WebControlError:
            if case .tooManyOutlines = error { return .jsonError(413, error.description) }
            return .jsonError(422, error.description)
        case let error as OPMLError:
            return .jsonError(422, "not an OPML document: \(error)")
        default:
            return .jsonError(500, "\(error)")
        }
    }
}
