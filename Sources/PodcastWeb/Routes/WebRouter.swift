import Foundation
import PodcastEngine

/// The web server's routes: access checks first (`WebAccess`), then the page, the static
/// assets, the event stream, the JSON API (`WebAPI`), the page's form actions
/// (`WebFormActions`) and `/metrics`. Every response gets the security headers
/// (`WebRouter.securityHeaders`). Unknown paths are `404`, a known path with another method
/// `405` with `Allow`; errors are JSON (`HTTPResponse.jsonError`).
///
/// | Method | Path | Answer |
/// |---|---|---|
/// | GET | `/` | the dashboard (`DashboardPage`) |
/// | GET | `/events` | Server-Sent Events (`SSEHub`) |
/// | GET | `/static/app.js`, `/static/app.css` | `WebAssets` |
/// | GET | `/export.opml` | the subscriptions as OPML (credentials masked unless the token was sent) |
/// | GET | `/metrics` | `WebMetrics` |
/// | GET, POST | `/api/feeds` | list; subscribe (JSON `{"url": ..., "title": ...}`) |
/// | GET, DELETE | `/api/feeds/ID` | one feed; unsubscribe |
/// | POST | `/api/feeds/ID/poll`, `/api/poll` | poll one feed, all feeds now |
/// | GET | `/api/episodes` | stored episodes, paged |
/// | GET | `/api/episodes/ID` | one episode with its sanitised show notes |
/// | POST | `/api/import` | OPML import (JSON `{"opml": "..."}`) |
/// | POST | `/feeds`, `/feeds/ID/poll`, `/feeds/ID/remove`, `/poll`, `/import` | the page's forms |
/// | GET, HEAD | `/media/…`, `/local/…` | downloaded files and the local podcast feeds (`WebMediaRoutes`) |
/// | … | `/api/downloads`, `/api/episodes/ID/download`, … | download control (`WebDownloadAPI`) |
///
/// `/local/SECRET/…` is the one path answered without the token or a loopback `Host`: its
/// secret is its credential (podcast apps send no bearer header).
///
/// Threading: the loop's thread only.
public final class WebRouter {
    /// The data shown.
    public let data: WebLibraryData
    /// The actions allowed.
    public let control: WebControl
    /// Token and CSRF rules.
    public let access: WebAccess
    /// The counters for `/metrics`.
    public let metrics: WebMetrics
    /// Where `/events` clients go (nil: `/events` is `404`).
    public let hub: SSEHub?
    /// Where an uploaded OPML is parsed (`WebImport`): the daemon's worker pool, so the loop
    /// never parses a file a client sent.
    public let offLoop: OffLoopExecutor
    /// Downloaded files, local feeds and download control (nil: none of those routes).
    public let downloads: WebDownloads?

    /// A router; `offLoop` defaults to running the parse in place (tests, benchmarks).
    public init(
        data: WebLibraryData, control: WebControl, access: WebAccess, metrics: WebMetrics, hub: SSEHub?,
        offLoop: OffLoopExecutor = InlineExecutor(), downloads: WebDownloads? = nil
    ) {
        self.downloads = downloads
        self.data = data
        self.control = control
        self.access = access
        self.metrics = metrics
        self.hub = hub
        self.offLoop = offLoop
    }

    /// Content-Security-Policy of every response: only our own script, style and connections;
    /// no inline script, no frames, no plugins, forms only to us.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The headers every response carries. `Referrer-Policy: same-origin` rather than
    /// `no-referrer`: with `no-referrer` Chromium sends `Origin: null` on the page's own form
    /// posts, which the CSRF check must refuse; links out of the page still send no referrer.
    public static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    /// Answers `request` (see the type's doc).
    public func reply(_ request: HTTPRequest) -> HTTPReply {
        if request.method == "GET" || request.method == "HEAD", request.path == "/", let login = access.login(request) {
            return .response(finish(login))
        }
        if let downloads, WebMediaRoutes.isLocal(request.path) {
            return finishing(WebMediaRoutes(downloads: downloads, offLoop: offLoop).local(request))
        }
        if let refusal = access.refusal(request) { return .response(finish(refusal)) }
        if let downloads, WebMediaRoutes.isMedia(request.path) {
            return finishing(WebMediaRoutes(downloads: downloads, offLoop: offLoop).media(request))
        }
        if request.path == "/events", let hub {
            guard request.method == "GET" else { return .response(finish(methodNotAllowed(["GET"]))) }
            var head = HTTPResponse(
                status: 200,
                headers: [
                    ("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                    ("X-Accel-Buffering", "no"),
                ])
            head.headers += WebRouter.securityHeaders
            return .stream(head: head, start: { hub.add($0) })
        }
        return finishing(route(request))
    }

    private func finishing(_ reply: HTTPReply) -> HTTPReply {
        switch reply {
        case .response(let response): return .response(finish(response))
        case .deferred(let start): return .deferred { respond in start { respond(self.finish($0)) } }
        case .stream(let head, let start): return .stream(head: head, start: start)
        }
    }

    /// The reply for a non-streaming request, before the security headers.
    func route(_ request: HTTPRequest) -> HTTPReply {
        let method = request.method == "HEAD" ? "GET" : request.method
        // One canonical spelling per resource: no empty segment (`//`), no trailing slash.
        let canonical = request.path == "/" || (!request.path.hasSuffix("/") && !request.path.contains("//"))
        let segments =
            canonical ? request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) : ["//"]
        let api = WebAPI(data: data, control: control, metrics: metrics, downloads: downloads)
        let forms = WebFormActions(control: control)
        // State changes: POST/DELETE only, and past the CSRF check.
        if method == "POST" || method == "DELETE", let refusal = access.csrfRefusal(request) {
            return .response(refusal)
        }
        for route in routes(api: api, forms: forms) {
            guard let capture = WebRouter.match(segments, route.pattern) else { continue }
            if route.method == method { return route.handle(request, capture) }
        }
        let allowed = Set(
            routes(api: api, forms: forms).filter { WebRouter.match(segments, $0.pattern) != nil }.map(\.method))
        if request.path == "/events" || !allowed.isEmpty {
            let list =
                request.path == "/events"
                ? ["GET"]  // as `reply` answers a HEAD on the stream: no HEAD for an event stream
                : WebRouter.methodOrder.filter { allowed.contains($0) || ($0 == "HEAD" && allowed.contains("GET")) }
            return .response(methodNotAllowed(list))
        }
        return .response(.jsonError(404, "no such page: \(request.path)"))
    }

    private struct Route {
        let method: String
        let pattern: [String]  // "*" matches one segment, handed to `handle`
        let handle: (HTTPRequest, String) -> HTTPReply

        init(method: String, pattern: [String], _ handle: @escaping (HTTPRequest, String) -> HTTPResponse) {
            self.method = method
            self.pattern = pattern
            self.handle = { .response(handle($0, $1)) }
        }

        init(method: String, pattern: [String], reply: @escaping (HTTPRequest, String) -> HTTPReply) {
            self.method = method
            self.pattern = pattern
            self.handle = reply
        }
    }

    private static let methodOrder = ["GET", "HEAD", "POST", "DELETE"]

    private func routes(api: WebAPI, forms: WebFormActions) -> [Route] {
        pageRoutes(api: api, forms: forms) + downloadRoutes()
    }

    private func downloadRoutes() -> [Route] {
        guard let downloads else { return [] }
        let api = WebDownloadAPI(downloads: downloads, data: data)
        return [
            Route(method: "GET", pattern: ["api", "downloads"]) { request, _ in api.list(request) },
            Route(method: "POST", pattern: ["api", "episodes", "*", "download"]) { _, id in api.download(id) },
            Route(method: "DELETE", pattern: ["api", "episodes", "*", "download"], reply: { _, id in api.delete(id) }),
            Route(method: "POST", pattern: ["api", "episodes", "*", "cancel"]) { _, id in api.cancel(id) },
            Route(method: "POST", pattern: ["api", "feeds", "*", "download-all"]) { _, id in api.downloadAll(id) },
        ]
    }

    private func pageRoutes(api: WebAPI, forms: WebFormActions) -> [Route] {
        [
            Route(method: "GET", pattern: []) { request, _ in self.page(request) },
            Route(method: "GET", pattern: ["static", "app.js"]) { _, _ in
                self.asset(WebAssets.script, type: "text/javascript; charset=utf-8")
            },
            Route(method: "GET", pattern: ["static", "app.css"]) { _, _ in
                self.asset(WebAssets.style, type: "text/css; charset=utf-8")
            },
            Route(method: "GET", pattern: ["export.opml"]) { request, _ in
                api.exportOPML(revealingCredentials: self.access.carriesToken(request))
            },
            Route(method: "GET", pattern: ["metrics"]) { _, _ in
                .text(self.metrics.render(), type: WebMetrics.contentType)
            },
            Route(method: "GET", pattern: ["api", "feeds"]) { request, _ in api.feeds(request) },
            Route(method: "POST", pattern: ["api", "feeds"]) { request, _ in api.add(request) },
            Route(method: "GET", pattern: ["api", "feeds", "*"]) { request, id in api.feed(id, request) },
            Route(method: "DELETE", pattern: ["api", "feeds", "*"]) { _, id in api.remove(id) },
            Route(method: "POST", pattern: ["api", "feeds", "*", "poll"]) { _, id in api.poll(id) },
            Route(method: "POST", pattern: ["api", "poll"]) { _, _ in api.pollAll() },
            Route(method: "GET", pattern: ["api", "episodes"]) { request, _ in api.episodes(request) },
            Route(method: "GET", pattern: ["api", "episodes", "*"]) { request, id in api.episode(id, request) },
            Route(
                method: "POST", pattern: ["api", "import"],
                reply: { request, _ in api.importOPML(request, self.offLoop) }),
            Route(method: "POST", pattern: ["feeds"]) { request, _ in forms.add(request) },
            Route(method: "POST", pattern: ["feeds", "*", "poll"]) { _, id in forms.poll(id) },
            Route(method: "POST", pattern: ["feeds", "*", "remove"]) { _, id in forms.remove(id) },
            Route(method: "POST", pattern: ["poll"]) { _, _ in forms.pollAll() },
            Route(
                method: "POST", pattern: ["import"], reply: { request, _ in forms.importOPML(request, self.offLoop) }),
        ]
    }

    // The segment matched by "*" ("" when the pattern has none), nil when `segments` do not match.
    private static func match(_ segments: [String], _ pattern: [String]) -> String? {
        guard segments.count == pattern.count else { return nil }
        var capture = ""
        for (segment, part) in zip(segments, pattern) {
            if part == "*" {
                guard isID(segment) else { return nil }
                capture = segment
            } else if part != segment {
                return nil
            }
        }
        return capture
    }

    /// A store id as a path segment: ASCII digits only, no sign, no leading zero, within `Int64`
    /// (`+1`, `01`, `1.0` are no id). The one rule behind every `/…/ID` route.
    static func isID(_ segment: String) -> Bool {
        let bytes = segment.utf8
        guard let first = bytes.first, first != UInt8(ascii: "0"), bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            return false
        }
        return Int64(segment) != nil
    }

    private func methodNotAllowed(_ allowed: [String]) -> HTTPResponse {
        var response = HTTPResponse.jsonError(405, "method not allowed here; use \(allowed.joined(separator: ", "))")
        response.headers.append(("Allow", allowed.joined(separator: ", ")))
        return response
    }

    private func page(_ request: HTTPRequest) -> HTTPResponse {
        let library = data.library
        return .html(
            DashboardPage.render(
                podcasts: library.snapshots, episodes: library.newestEpisodes, totalNew: library.totalNew,
                episodeCount: data.episodeCount, csrf: access.csrfSecret, notice: WebFormActions.notice(request.query)))
    }

    private func asset(_ text: String, type: String) -> HTTPResponse {
        var response = HTTPResponse.text(text, type: type)
        response.headers.append(("Cache-Control", "no-cache"))
        return response
    }

    private func finish(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        if response.header("Cache-Control") == nil { response.headers.append(("Cache-Control", "no-store")) }
        response.headers += WebRouter.securityHeaders
        return response
    }
}
