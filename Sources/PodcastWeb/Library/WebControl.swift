import Foundation
import LoopScheduler
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// The state changes the web page and API may make, as the CLI makes them: subscribe,
/// unsubscribe, poll one feed or all now, import OPML. `DaemonWebControl` does them on the
/// running daemon; tests pass recording fakes.
///
/// Threading: the loop's thread only.
public protocol WebControl: AnyObject {
    /// Subscribes to `url` (an `http` or `https` URL only: a web client must not make the
    /// daemon read local files) with an optional user title and starts polling it. Throws
    /// `WebControlError` (bad URL, a title with control or bidi characters) or `StoreError` (`.alreadySubscribed`, `.invalidURL`).
    func addFeed(url: String, title: String?) throws -> FeedRecord
    /// Unsubscribes feed `id`. Throws `StoreError.noSuchFeed`.
    func removeFeed(id: Int64) throws
    /// Polls feed `id` now; `false` when there is no such feed.
    func pollFeed(id: Int64) -> Bool
    /// Polls every enabled feed now (as SIGUSR1).
    func pollAll()
    /// Subscribes to the `http(s)` feeds among `outlines` (parsed off the loop by `WebImport`,
    /// at most `WebImportSummary.maxOutlines`; `import`'s rules, local file outlines skipped);
    /// returns what happened. Throws `StoreError` when the daemon cannot re-read the store.
    func importOutlines(_ outlines: [OPMLOutline]) throws -> WebImportSummary
    /// The subscriptions as an OPML document (`export`'s). With `revealingCredentials` false
    /// every feed URL is masked as `list` shows it (`MaskedURL`); true writes the stored URLs,
    /// credentials included, so a backup round-trips (the router decides: see `WebRouter`).
    func exportOPML(revealingCredentials: Bool) throws -> String
}

/// What an OPML import did.
public struct WebImportSummary: Equatable, Sendable {
    /// Feeds subscribed.
    public var added = 0
    /// Outlines already subscribed (or repeated in the file).
    public var existing = 0
    /// Outlines refused (not an http(s) URL, invalid).
    public var skipped = 0
    /// Most outlines one web import takes: a larger file is refused whole (the CLI `import`
    /// takes any size), so one request cannot hold the loop for long.
    public static let maxOutlines = 1_000
    /// The summary, zeros.
    public init(added: Int = 0, existing: Int = 0, skipped: Int = 0) {
        self.added = added
        self.existing = existing
        self.skipped = skipped
    }
}

/// Why a web action was refused before reaching the store.
public enum WebControlError: Error, Equatable, CustomStringConvertible {
    /// Only `http` and `https` feeds may be added from the web.
    case notHTTP(String)
    /// A title with control characters (newlines, tabs, escapes) or bidi overrides, refused
    /// as the CLI's `--title` is.
    case unacceptableTitle
    /// An OPML document with `count` outlines, more than `cap` (`WebImportSummary.maxOutlines`).
    case tooManyOutlines(count: Int, cap: Int)

    /// The message for the client.
    public var description: String {
        switch self {
        case .notHTTP: return "only http:// and https:// feed URLs can be added from the web"
        case .unacceptableTitle:
            return "\"title\" must not contain control characters (newlines, tabs, escapes) or bidi overrides"
        case .tooManyOutlines(let count, let cap):
            return
                "the OPML has \(count) outlines; the web import takes at most \(cap): use `podcast-watch import FILE` for larger files"
        }
    }
}

/// `WebControl` on a running `PodcastDaemon` and its store: a change is written to the store,
/// then the daemon re-reads the subscriptions (`reload()`, as after SIGHUP), which polls new
/// feeds at once and drops removed ones.
public final class DaemonWebControl<S: Scheduler>: WebControl where S.SchedulerTimeType == MonotonicInstant {
    private let store: FeedStore
    private let daemon: PodcastDaemon<S>

    /// Control over `daemon`, which polls the feeds of `store`.
    public init(store: FeedStore, daemon: PodcastDaemon<S>) {
        self.store = store
        self.daemon = daemon
    }

    /// See `WebControl.addFeed(url:title:)`.
    public func addFeed(url: String, title: String?) throws -> FeedRecord {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = trimmed.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { throw WebControlError.notHTTP(trimmed) }
        if let title, !TerminalText.isAcceptableTitle(title) { throw WebControlError.unacceptableTitle }
        let record = try store.add(url: trimmed, title: title)
        try daemon.reload()
        return record
    }

    /// See `WebControl.removeFeed(id:)`.
    public func removeFeed(id: Int64) throws {
        try store.remove(id: id)
        try daemon.reload()
    }

    /// See `WebControl.pollFeed(id:)`.
    public func pollFeed(id: Int64) -> Bool { daemon.pollNow(id: id) }

    /// See `WebControl.pollAll()`.
    public func pollAll() { daemon.pollAllNow() }

    /// See `WebControl.importOutlines(_:)`.
    public func importOutlines(_ outlines: [OPMLOutline]) throws -> WebImportSummary {
        var summary = WebImportSummary()
        for outline in outlines {
            let lower = outline.url.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                summary.skipped += 1
                continue
            }
            let title = outline.title.flatMap { TerminalText.isAcceptableTitle($0) ? $0 : nil }
            let interval = outline.interval.map { min($0, PollPolicy.maximumIntervalSeconds) }
            do {
                try store.add(url: outline.url, title: title, intervalSeconds: interval)
                summary.added += 1
            } catch StoreError.alreadySubscribed {
                summary.existing += 1
            } catch {
                summary.skipped += 1
            }
        }
        if summary.added > 0 { try daemon.reload() }
        return summary
    }

    /// See `WebControl.exportOPML(revealingCredentials:)`.
    public func exportOPML(revealingCredentials: Bool) throws -> String {
        var masked = 0
        let document = OPML.export(
            try store.feeds().map {
                let url = revealingCredentials ? $0.url : MaskedURL.string($0.url)
                if url != $0.url { masked += 1 }
                return OPMLOutline(url: url, title: $0.title ?? $0.feedTitle, interval: $0.intervalSeconds)
            })
        guard masked > 0, let declarationEnd = document.firstIndex(of: "\n") else { return document }
        // Said in the file itself, so a masked backup is not mistaken for a full one.
        let note =
            "<!-- \(masked) feed URL(s) have their credentials masked (***): send the web token, or use `podcast-watch export`, for the full URLs -->\n"
        return String(document[...declarationEnd]) + note + String(document[document.index(after: declarationEnd)...])
    }
}
