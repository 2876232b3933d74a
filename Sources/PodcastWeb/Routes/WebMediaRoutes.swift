import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// The routes of downloaded media and the local podcast feeds (see `WebDownloads` for the URL
/// shapes):
///
/// | Method | Path | Answer |
/// |---|---|---|
/// | GET, HEAD | `/media/ID/NAME` | episode ID's downloaded file (the API's access rules) |
/// | GET, HEAD | `/local/SECRET/feed.xml` | RSS 2.0 of the secret's feed (or of the library) |
/// | GET, HEAD | `/local/SECRET/media/ID/NAME` | the file, when the secret's feed lists it |
///
/// A file is served only when the store says its download is `done`, NAME is its file name,
/// and it opens as a regular file inside the download folders (`MediaFile.open`, off the loop on
/// `offLoop`). Every refusal, a wrong or rotated secret included, is `404`: nothing tells a
/// guesser what exists.
///
/// Threading: the loop's thread only.
struct WebMediaRoutes {
    let downloads: WebDownloads
    let offLoop: OffLoopExecutor

    /// Whether `path` is one of these routes' (`/local/…`, where the secret replaces the token).
    static func isLocal(_ path: String) -> Bool { path.hasPrefix("/local/") }

    /// Whether `path` is a media path (`/media/…`, behind the API's access rules).
    static func isMedia(_ path: String) -> Bool { path.hasPrefix("/media/") }

    /// Answers `/local/SECRET/…`.
    func local(_ request: HTTPRequest) -> HTTPReply {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(
            String.init)
        guard let secret = segments.first, let scope = try? downloads.store.localFeedScope(secret: secret) else {
            return .response(WebMediaRoutes.notFound)
        }
        guard request.method == "GET" || request.method == "HEAD" else { return .response(WebMediaRoutes.getOnly) }
        let rest = Array(segments.dropFirst())
        if rest == ["feed.xml"] { return .response(feed(scope: scope, secret: secret, request)) }
        guard rest.count == 3, rest[0] == "media" else { return .response(WebMediaRoutes.notFound) }
        return media(id: rest[1], name: rest[2], scope: scope, request)
    }

    /// Answers `/media/ID/NAME` (access already checked).
    func media(_ request: HTTPRequest) -> HTTPReply {
        guard request.method == "GET" || request.method == "HEAD" else { return .response(WebMediaRoutes.getOnly) }
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).map(
            String.init)
        guard segments.count == 2 else { return .response(WebMediaRoutes.notFound) }
        return media(id: segments[0], name: segments[1], scope: FeedStore.libraryScope, request)
    }

    private func media(id: String, name: String, scope: Int64, _ request: HTTPRequest) -> HTTPReply {
        guard WebRouter.isID(id), let number = Int64(id),
            let entry = try? downloads.store.localFeedEntry(episodeID: number), entry.fileName == name,
            scope == FeedStore.libraryScope || scope == entry.episode.feedID
        else { return .response(WebMediaRoutes.notFound) }
        let type = MediaFile.contentType(declared: entry.episode.enclosure?.mimeType, path: entry.path)
        let path = entry.path
        let folders = downloads.servedFolders
        let offLoop = self.offLoop
        return .deferred { respond in
            final class Token { var value: Cancellable? }
            let token = Token()
            token.value = offLoop.submit({ MediaFile.open(path: path, folders: folders) }) { opened in
                token.value = nil
                switch opened {
                case .success(let file): respond(MediaFile.response(file, contentType: type, request: request))
                case .failure: respond(WebMediaRoutes.notFound)
                }
            }
        }
    }

    private func feed(scope: Int64, secret: String, _ request: HTTPRequest) -> HTTPResponse {
        let store = downloads.store
        let channel: LocalFeedXML.Channel
        let entries: [LocalFeedEntry]
        do {
            if scope == FeedStore.libraryScope {
                channel = LocalFeedXML.Channel(
                    title: "podcast-watch library", link: nil, imageURL: nil,
                    description: "Every episode podcast-watch downloaded, newest first.")
                entries = try store.localFeedEntries(feedID: nil)
            } else {
                guard let feed = try store.feed(id: scope) else { return WebMediaRoutes.notFound }
                channel = LocalFeedXML.Channel(
                    title: feed.knownTitle ?? MaskedURL.string(feed.url), link: feed.link, imageURL: feed.imageURL,
                    description:
                        "Episodes podcast-watch downloaded of \(feed.knownTitle ?? MaskedURL.string(feed.url)).")
                entries = try store.localFeedEntries(feedID: scope)
            }
        } catch {
            return .jsonError(500, "cannot read the downloads: \(error)")
        }
        let prefix = downloads.base(request) + "/local/\(secret)"
        let xml = LocalFeedXML.render(
            channel: channel, entries: entries, enclosureURL: { prefix + WebDownloads.mediaPath($0) },
            contentType: { MediaFile.contentType(declared: $0.episode.enclosure?.mimeType, path: $0.path) })
        var response = HTTPResponse.text(xml, type: "application/rss+xml; charset=utf-8")
        response.headers.append(("Cache-Control", "private, no-cache"))
        return response
    }

    static let notFound = HTTPResponse.jsonError(404, "no such file or feed")

    static var getOnly: HTTPResponse {
        var response = HTTPResponse.jsonError(405, "method not allowed here; use GET, HEAD")
        response.headers.append(("Allow", "GET, HEAD"))
        return response
    }
}
