import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds

/// What `add` does before it subscribes (unless `--no-check`): one fetch of the URL with the
/// daemon's limits (`PodcastDaemon.Configuration`'s, so a feed `add` accepts is one `run` can
/// fetch), parsed as the daemon parses it. A feed gives its channel title and `podcast:guid`
/// (the show's identity, by which `add` finds the same show subscribed under another URL); an
/// HTML page gives
/// the feeds it links to (`FeedLinkDiscovery`), and a page linking exactly one feed is followed
/// once (that feed is fetched and parsed the same way, never followed further).
///
/// Threading: `run` on any thread; it runs a loop of its own there until the check ends (not
/// `EventLoop.main`, so a caller's main loop is left alone). The fetch is multiplexed on that
/// loop; the parse, the link discovery and local file reads run on a worker thread.
struct FeedCheck {
    /// What the check found.
    enum Found: Equatable, Sendable {
        /// A feed at `url` (the URL given, or the one feed the page at the URL given links to),
        /// with its channel title and `podcast:guid` as parsed (`nil`: it has none). Text from
        /// outside: neutralise it.
        case feed(url: String, title: String?, podcastGUID: String?)
        /// The page links several feeds (at least two): the user picks one.
        case several([FeedLink])
        /// No feed: `reason` says why (an HTTP error, a host that does not resolve, a document
        /// that is neither a feed nor a page linking one). Text from outside: neutralise it.
        case refused(reason: String)
    }

    /// The limits of each fetch.
    var limits = PodcastDaemon<LoopScheduler>.Configuration().limits

    /// Fetches and classifies `url` (normalized: http(s) or file) on an event loop of its own,
    /// run on the calling thread; throws only when the event loop fails.
    func run(_ url: String) throws -> Found {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        // The fetcher and the worker are released inside `check`, before the loop's base goes.
        return try check(url, on: loop)
    }

    private func check(_ url: String, on loop: EventLoop) throws -> Found {
        let workers = WorkerPool(loop: loop, threads: 1)
        let fetcher = HTTPFetcher(eventBase: loop.base, fileReader: workers)
        var found: Found?
        var pending: Cancellable?
        // One step: fetch `target`, classify the body on the worker, then finish or follow.
        func step(_ target: String, following: Bool) {
            pending = fetcher.fetch(FetchRequest(url: target, limits: limits)) { result in
                switch result {
                case .failure(let error):
                    found = .refused(reason: FeedCheck.describe(error, following: following))
                    loop.stop()
                case .success(let response):
                    pending = workers.submit({ FeedCheck.classify(response) }) { page in
                        switch page {
                        case .feed(let title, let guid): found = .feed(url: target, title: title, podcastGUID: guid)
                        case .links(let links) where links.count == 1 && !following:
                            step(links[0].url, following: true)
                            return
                        case .links(let links) where !following: found = .several(links)
                        case .links, .notAFeed:
                            found = .refused(reason: FeedCheck.notAFeed(page, target: target, following: following))
                        }
                        loop.stop()
                    }
                }
            }
        }
        step(url, following: false)
        try loop.run()
        pending?.cancel()
        fetcher.cancelAll()
        return found ?? .refused(reason: "the check did not finish")
    }

    /// A fetched body, classified off the loop.
    enum Page: Equatable, Sendable {
        /// A feed, with its channel title and `podcast:guid`.
        case feed(title: String?, podcastGUID: String?)
        /// Not a feed; an HTML page linking these feeds (at least one).
        case links([FeedLink])
        /// Neither a feed nor a page linking one: the parser's reason.
        case notAFeed(String)
    }

    /// Parses `response` as the daemon does; a body that is no feed is searched for feed links.
    /// Any thread.
    static func classify(_ response: FetchResponse) -> Page {
        do {
            let parsed = try FeedParsing.parse(response)
            return .feed(title: parsed.channel.title, podcastGUID: parsed.channel.podcastGUID)
        } catch {
            let links = FeedLinkDiscovery.links(
                inHTML: [UInt8](response.body), pageURL: response.effectiveURL, httpContentType: response.contentType)
            return links.isEmpty ? .notAFeed("\(error)") : .links(links)
        }
    }

    private static func describe(_ error: FetchError, following: Bool) -> String {
        let what =
            following ? "the feed the page links to (\(MaskedURL.string(error.url)))" : MaskedURL.string(error.url)
        return "cannot fetch \(what): \(error.message)"
    }

    private static func notAFeed(_ page: Page, target: String, following: Bool) -> String {
        let url = MaskedURL.string(target)
        switch page {
        case .notAFeed(let reason) where following:
            return "the feed the page links to, \(url), is not a feed: \(reason)"
        case .notAFeed(let reason):
            return "\(url) is not a feed, and links to none: \(reason)"
        default:
            return "the feed the page links to, \(url), is another page, not a feed"
        }
    }
}
