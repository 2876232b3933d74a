import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// The dashboard page, rendered on the server: complete and usable with scripts off (every
/// action is a plain form post); `/static/app.js` only keeps it live. Every string from a feed
/// or a user goes through `HTMLEscape`; links from feeds only when `http(s)`. The markup of a
/// feed row and an episode item is mirrored by `app.js` (which builds them with `textContent`),
/// so a live update looks exactly like a reload.
public enum DashboardPage {
    /// The page for `podcasts` (display order), the newest `episodes`, `totalNew` announced since
    /// start, the feeds' stored episode counts (`episodeCount`), the form secret `csrf`, and an
    /// optional `notice` (already plain text from our own table, escaped here all the same).
    public static func render(
        podcasts: [Podcast], episodes: [EpisodeAnnouncement], totalNew: Int, episodeCount: (Podcast) -> Int,
        csrf: String, notice: Notice? = nil
    ) -> String {
        let token = HTMLEscape.text(csrf)
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="csrf" content="\(token)">
            <title>podcast-watch</title>
            <link rel="stylesheet" href="/static/app.css">
            <script src="/static/app.js" defer></script>
            </head>
            <body>
            <header>
            <h1>podcast-watch</h1>
            <p id="counts">\(HTMLEscape.text(countsText(podcasts, totalNew: totalNew)))</p>
            <p id="live" class="live" hidden>live</p>
            </header>
            <main>

            """
        if let notice {
            html +=
                "<p class=\"notice \(notice.isError ? "error" : "ok")\" role=\"status\">\(HTMLEscape.text(notice.text))</p>\n"
        }
        html += """
            <section>
            <h2>Feeds</h2>
            <div class="tools">
            <form method="post" action="/feeds" class="add">
            \(hidden(token))<input type="url" name="url" required placeholder="https://example.com/feed.xml" aria-label="Feed URL">
            <input type="text" name="title" placeholder="Title (optional)" aria-label="Title">
            <button type="submit">Add feed</button>
            </form>
            <form method="post" action="/poll">\(hidden(token))<button type="submit">Poll all now</button></form>
            </div>
            <div class="table-wrap">
            <table>
            <thead><tr><th>Feed</th><th>Status</th><th>Last poll</th><th>Next poll</th><th>Episodes</th><th>Last error</th><th></th></tr></thead>
            <tbody id="feeds">

            """
        if podcasts.isEmpty {
            html += "<tr class=\"empty\"><td colspan=\"7\">No feeds yet: add one above.</td></tr>\n"
        }
        for p in podcasts { html += row(p, episodes: episodeCount(p), csrf: token) }
        html += """
            </tbody>
            </table>
            </div>
            </section>
            <section>
            <h2>Newest episodes</h2>
            <ol id="episodes">

            """
        for e in episodes { html += item(e) }
        html += """
            </ol>
            </section>
            \(downloadsSection)<section>
            <h2>OPML</h2>
            <form method="post" action="/import" enctype="multipart/form-data" class="import">
            \(hidden(token))<input type="file" name="opml" accept=".opml,.xml,text/xml,text/x-opml" aria-label="OPML file" required>
            <button type="submit">Import</button>
            </form>
            <p><a href="/export.opml" download="podcast-watch.opml">Export OPML</a> · <a href="/metrics">Metrics</a> · <a href="/api/feeds">JSON</a></p>
            </section>
            </main>
            </body>
            </html>

            """
        return html
    }

    /// A message shown above the feeds after a form post.
    public struct Notice: Equatable, Sendable {
        /// The text (ours, never a client's).
        public var text: String
        /// Shown as an error.
        public var isError: Bool
        /// A notice.
        public init(_ text: String, isError: Bool = false) {
            self.text = text
            self.isError = isError
        }
    }

    /// One feed row (`<tr id="feed-ID">`).
    public static func row(_ p: Podcast, episodes: Int, csrf: String) -> String {
        var html = "<tr id=\"feed-\(p.id)\">"
        html += "<td class=\"feed\"><span class=\"title\">\(HTMLEscape.text(p.displayTitle))</span>"
        html += "<small class=\"url\">\(HTMLEscape.text(MaskedURL.string(p.url)))</small></td>"
        html += "<td><span class=\"status s-\(p.status.rawValue)\">\(p.status.rawValue)</span></td>"
        html += timeCell(p.lastCheck) + timeCell(p.status == .disabled ? nil : p.nextPoll)
        html += "<td class=\"num\">\(episodes)</td>"
        html += "<td class=\"error\">\(HTMLEscape.text(p.lastError ?? ""))"
        if let error = p.hookError { html += "<small class=\"hook\">hook failing: \(HTMLEscape.text(error))</small>" }
        if let retry = p.hookRetry {
            html +=
                "<small class=\"hook\">\(HTMLEscape.text(DashboardPage.owedHookText(retry, owed: p.hookRetriesOwed)))</small>"
        }
        html += "</td>"
        html += "<td class=\"actions\">"
        html +=
            "<form method=\"post\" action=\"/feeds/\(p.id)/poll\">\(hidden(csrf))<button type=\"submit\">Poll</button></form>"
        html +=
            "<form method=\"post\" action=\"/feeds/\(p.id)/remove\">\(hidden(csrf))<button type=\"submit\">Remove</button></form>"
        html += "</td></tr>\n"
        return html
    }

    /// "hook retry 2/4 due 2024-01-31 12:00 UTC: exited with status 3 (3 episodes owe one)", as
    /// `app.js` writes it from `hook_retry`.
    static func owedHookText(_ retry: PendingHookRetry, owed: Int) -> String {
        let of = retry.attempts.map { "/\($0)" } ?? ""
        var text = "hook retry \(retry.attempt)\(of) due \(display(WebJSON.iso8601(retry.due)))"
        if let error = WebJSON.shown(retry.lastError) { text += ": " + error }
        if owed > 1 { text += " (\(owed) episodes owe one)" }
        return text
    }

    /// The downloads in flight: filled by the script from the event stream's `downloads`.
    static let downloadsSection = """
        <section>
        <h2>Downloads</h2>
        <p id="downloads-summary">No downloads in progress.</p>
        <ul id="downloads"></ul>
        </section>

        """

    /// One newest-episodes item.
    public static func item(_ e: EpisodeAnnouncement) -> String {
        var html =
            "<li><span class=\"podcast\">\(HTMLEscape.text(e.podcastTitle ?? MaskedURL.string(e.feedURL)))</span> "
        let title = HTMLEscape.text(e.title ?? "(untitled)")
        // Masked as everywhere else: a link with credentials in it would hand them to any reader.
        if let href = HTMLEscape.link((e.link ?? e.url).map(MaskedURL.string)) {
            html += "<a href=\"\(href)\" rel=\"noopener noreferrer nofollow\">\(title)</a>"
        } else {
            html += "<span class=\"episode\">\(title)</span>"
        }
        if let published = e.published {
            let iso = WebJSON.iso8601(published)
            html += " <time datetime=\"\(iso)\">\(display(iso))</time>"
        }
        // Show notes load on opening (`/api/episodes/ID`, the sanitiser's output; `app.js`).
        if let id = e.episodeID {
            html += "<details class=\"notes\" data-episode=\"\(id)\"><summary>Show notes</summary></details>"
        }
        return html + "</li>\n"
    }

    /// `12 feeds · ok 10 · failing 2 · 5 new since start`: statuses with a count only.
    public static func countsText(_ podcasts: [Podcast], totalNew: Int) -> String {
        var byStatus: [Podcast.Status: Int] = [:]
        for p in podcasts { byStatus[p.status, default: 0] += 1 }
        var parts = ["\(podcasts.count) \(podcasts.count == 1 ? "feed" : "feeds")"]
        for status in WebJSON.statusOrder {
            if let n = byStatus[status], n > 0 { parts.append("\(status.rawValue) \(n)") }
        }
        parts.append("\(totalNew) new since start")
        return parts.joined(separator: " · ")
    }

    /// `2024-01-31T12:00:00Z` shown as `2024-01-31 12:00 UTC`.
    static func display(_ iso: String) -> String {
        String(iso.replacingOccurrences(of: "T", with: " ").prefix(16)) + " UTC"
    }

    private static func timeCell(_ date: Date?) -> String {
        guard let date else { return "<td>—</td>" }
        let iso = WebJSON.iso8601(date)
        return "<td><time datetime=\"\(iso)\">\(display(iso))</time></td>"
    }

    private static func hidden(_ escapedToken: String) -> String {
        "<input type=\"hidden\" name=\"csrf\" value=\"\(escapedToken)\">"
    }
}
