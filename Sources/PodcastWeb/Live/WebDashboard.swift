import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore

/// `run --http`: the web dashboard, JSON API and metrics of a running daemon, served by
/// `HTTPServer` (libevent's `evhttp`) on the daemon's own loop. It wires a `WebView` (the
/// second observer of the daemon's `LibraryViewModel`) to an `SSEHub`, a `WebRouter` over
/// `DaemonWebControl`, and a heartbeat for quiet event streams.
///
/// Threading: create, use and `close()` on the loop's thread, before the store closes.
public final class WebDashboard {
    /// The server.
    public let server: HTTPServer
    /// The live view.
    public let view: WebView<LoopScheduler>
    /// The event-stream clients.
    public let hub: SSEHub
    /// The access rules (token, CSRF secret).
    public let access: WebAccess
    /// Where it listens (the real port when 0 was asked).
    public let address: HTTPAddress
    /// Seconds between keep-alive comments on event streams.
    public static let heartbeatInterval = 15

    private var heartbeat: EventRegistration?

    /// Starts serving on `address`; uploaded OPML files are parsed on `offLoop` (the daemon's
    /// worker pool). `token`: required from clients (`nil`: none on loopback; a
    /// random one is made for any other address, and for a `publicOrigin` that is not loopback:
    /// a reverse proxy's clients are not this machine's users). Throws `HTTPServerError` (bind failed).
    public init<S: Scheduler>(
        loop: EventLoop, scheduler: LoopScheduler, store: FeedStore, daemon: PodcastDaemon<S>, address: HTTPAddress,
        token: String?, publicOrigin: HTTPPublicOrigin? = nil, metrics: WebMetrics, limits: HTTPLimits = HTTPLimits(),
        offLoop: OffLoopExecutor = InlineExecutor(), downloads: DownloadQueue? = nil, downloadFolders: [String] = []
    ) throws where S.SchedulerTimeType == MonotonicInstant {
        let required = WebDashboard.requiresToken(address: address, publicOrigin: publicOrigin)
        let access = WebAccess(
            token: token ?? (required ? WebAccess.randomSecret() : nil), publicOrigin: publicOrigin)
        let data = WebLibraryData(library: daemon.library, store: store)
        let hub = SSEHub(snapshot: { "{}" })
        let view = WebView(data: data, hub: hub, scheduler: scheduler, metrics: metrics, downloads: downloads?.model)
        let media = WebDownloads(
            store: store, folders: downloadFolders, queue: downloads, publicOrigin: publicOrigin)
        let router = WebRouter(
            data: data, control: DaemonWebControl(store: store, daemon: daemon), access: access, metrics: metrics,
            hub: hub, offLoop: offLoop, downloads: media)
        let server = try HTTPServer(loop: loop, limits: limits) { router.reply($0) }
        server.errorHeaders = [("Cache-Control", "no-store")] + WebRouter.securityHeaders
        try server.bind(address: address.host, port: address.port)
        metrics.podcasts = { [weak view] in view?.library.snapshots ?? [] }
        metrics.sseClients = { [weak hub] in hub?.clientCount ?? 0 }
        metrics.httpConnections = { [weak server] in server?.connectionCount ?? 0 }
        metrics.viewUpdates = { [weak view] in view?.changeUpdateCount ?? 0 }
        metrics.loopFlushes = { [weak loop] in loop?.completedFlushCount ?? 0 }
        metrics.downloads = { [weak downloads] in downloads.map(WebMetrics.DownloadFigures.init) }
        self.server = server
        self.view = view
        self.hub = hub
        self.access = access
        self.address = HTTPAddress(host: address.host, port: server.port)
        heartbeat = loop.scheduleRepeatingTimer(every: .seconds(WebDashboard.heartbeatInterval)) { [weak hub] in
            hub?.heartbeat()
        }
    }

    /// The line printed once at start: the URL, and with a token the URL that logs a browser
    /// in (the only place the generated token is shown).
    public var banner: String {
        let base = url
        guard let token = access.token else { return "podcast-watch: dashboard at \(base)\(listeningNote)\n" }
        return
            "podcast-watch: dashboard at \(base)\(listeningNote) (token required; open \(base)?token=\(token) once, or send 'Authorization: Bearer \(token)')\n"
    }

    /// Whether clients must send a token: on an address other than loopback, and behind a
    /// public origin that is not loopback (the proxy's clients all arrive from loopback).
    public static func requiresToken(address: HTTPAddress, publicOrigin: HTTPPublicOrigin?) -> Bool {
        !address.isLoopback || publicOrigin?.isLoopback == false
    }

    /// The dashboard's URL as users open it: the public origin's when there is one, else
    /// `http://ADDRESS/`.
    public var url: String { access.publicOrigin.map { "\($0)/" } ?? "http://\(address)/" }

    /// With a public origin, where the proxy must send requests (` via http://127.0.0.1:8080/`);
    /// empty without one.
    public var listeningNote: String { access.publicOrigin == nil ? "" : " via http://\(address)/" }

    /// Stops serving: event streams end, connections close. Idempotent.
    public func close() {
        heartbeat?.cancel()
        heartbeat = nil
        server.close()
    }
}
