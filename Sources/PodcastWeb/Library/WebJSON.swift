import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// The JSON shapes of the web API and the event stream (one place, so `/api/feeds`, the SSE
/// events and the manual, docs/PODCAST-WATCH.md, agree). Keys are snake_case, as in the daemon's JSON lines; dates are
/// ISO 8601 UTC with milliseconds (`WebJSON.iso8601`); every URL (feed, enclosure, link, and a
/// guid that is a URL) has its credentials masked as `list` masks them (`MaskedURL`);
/// bidi overrides and isolates in feed or server text are U+FFFD (`shown`), since the page
/// renders these strings (control characters are JSON-escaped and never reach the page).
public enum WebJSON {
    /// One feed: `id`, `url`, `title` (null before the first successful poll), `status` (the
    /// status word), `last_check`, `next_poll` (null when disabled: it is never polled again),
    /// `last_error`, `hook_error`, `episode_count`
    /// (stored episodes), `new_count` (announced since the daemon started), `hook_retry` (the
    /// soonest hook attempt owed, as `list --json` gives it: `attempt`, `attempts` (null when
    /// unknown), `due`, `error`, `pending` (episodes owing one); null when none is owed).
    public static func feed(_ p: Podcast, episodeCount: Int) -> OrderedJSON {
        .object([
            ("id", .int(p.id)), ("url", .string(MaskedURL.string(p.url))), ("title", .string(shown(p.title))),
            ("status", .string(p.status.rawValue)), ("last_check", WebJSON.date(p.lastCheck)),
            ("next_poll", WebJSON.date(p.status == .disabled ? nil : p.nextPoll)),
            ("last_error", .string(shown(p.lastError))),
            ("hook_error", .string(shown(p.hookError))), ("episode_count", .int(episodeCount)),
            ("new_count", .int(p.newCount)), ("hook_retry", hookRetry(p)),
        ])
    }

    private static func hookRetry(_ p: Podcast) -> OrderedJSON {
        guard let retry = p.hookRetry else { return .null }
        return .object([
            ("attempt", .int(Int64(retry.attempt))), ("attempts", .int(retry.attempts.map(Int64.init))),
            ("due", date(retry.due)), ("error", .string(shown(retry.lastError))),
            ("pending", .int(Int64(max(1, p.hookRetriesOwed)))),
        ])
    }

    /// One stored episode: `id`, `feed_id`, `title`, `published`, `first_seen`, `guid`, `link`,
    /// `url` (the primary enclosure), `mime_type`, `length` (bytes), `duration` (seconds),
    /// `description` (plain text).
    public static func episode(_ e: StoredEpisode) -> OrderedJSON {
        .object([
            ("id", .int(e.id)), ("feed_id", .int(e.feedID)), ("title", .string(shown(e.title))),
            ("published", WebJSON.date(e.published)), ("first_seen", WebJSON.date(e.firstSeen)),
            ("guid", .string(e.guid.map(MaskedURL.string))),
            ("link", .string(e.link.map(MaskedURL.string))),
            ("url", .string(e.enclosure.map { MaskedURL.string($0.url) })),
            ("mime_type", .string(e.enclosure?.mimeType)), ("length", .int(e.enclosure?.length)),
            ("duration", .number(e.duration)), ("description", .string(shown(e.description))),
        ])
    }

    /// One episode with its show notes (`GET /api/episodes/ID`): `episode`'s keys plus
    /// `show_notes_html`, the HTML the page inserts. `html` goes through `HTMLSanitizer` here
    /// whatever the store held (the store wrote the sanitiser's output, but a state file is
    /// input too), so nothing but the sanitiser's output is ever served as HTML; `null` without
    /// show notes.
    public static func episodeDetail(_ e: StoredEpisode, showNotesHTML html: String?) -> OrderedJSON {
        guard case .object(var fields) = episode(e) else { return episode(e) }
        fields.append(("show_notes_html", .string(shown(html.map(HTMLSanitizer.sanitize)))))
        return .object(fields)
    }

    /// One announcement of the newest-episodes list: `feed_id`, `episode_id` (the stored
    /// episode, for `/api/episodes/ID`; null when not from the store), `podcast_title`, `title`,
    /// `published`, `time` (when it was announced), `url`, `link`.
    public static func announcement(_ a: EpisodeAnnouncement) -> OrderedJSON {
        .object([
            ("feed_id", .int(a.feedID)), ("episode_id", .int(a.episodeID)),
            ("podcast_title", .string(shown(a.podcastTitle))),
            ("title", .string(shown(a.title))),
            ("published", WebJSON.date(a.published)), ("time", WebJSON.date(a.time)),
            ("url", .string(a.url.map(MaskedURL.string))), ("link", .string(a.link.map(MaskedURL.string))),
        ])
    }

    /// The download queue as the page shows it: `active` (each transfer in flight:
    /// `episode_id`, `podcast_title`, `episode_title`, `bytes`, `total`, `bytes_per_second`, in
    /// start order), `waiting`, `finished` (since start), `failed` (downloads whose last attempt
    /// failed).
    public static func downloads(_ model: DownloadsViewModel) -> OrderedJSON {
        .object([
            (
                "active",
                .array(
                    model.active.map {
                        .object([
                            ("episode_id", .int($0.id)), ("podcast_title", .string(shown($0.podcastTitle))),
                            ("episode_title", .string(shown($0.episodeTitle))), ("bytes", .int($0.bytes)),
                            ("total", .int($0.total)), ("bytes_per_second", .number($0.bytesPerSecond.rounded())),
                        ])
                    })
            ),
            ("waiting", .int(Int64(model.waitingCount))), ("finished", .int(Int64(model.finishedCount))),
            ("failed", .int(Int64(model.failedCount))),
        ])
    }

    /// The header counts: `feeds` (total), one count per status word (all six, zeros
    /// included, in `Podcast.Status` order), `new_since_start`.
    public static func counts(_ podcasts: [Podcast], totalNew: Int) -> OrderedJSON {
        var byStatus: [Podcast.Status: Int] = [:]
        for p in podcasts { byStatus[p.status, default: 0] += 1 }
        return counts(feeds: podcasts.count, byStatus: byStatus, totalNew: totalNew)
    }

    /// The header counts from counts already kept (`LibraryViewModel.countsByStatus`): the same
    /// object as `counts(_:totalNew:)`, in O(1).
    public static func counts(feeds: Int, byStatus: [Podcast.Status: Int], totalNew: Int) -> OrderedJSON {
        .object(
            [("feeds", .int(feeds))] + statusOrder.map { ($0.rawValue, .int(byStatus[$0] ?? 0)) }
                + [("new_since_start", .int(totalNew))])
    }

    /// `date` in UTC with milliseconds (`2024-01-31T12:00:00.125Z`, RFC 3339), or `.null`,
    /// built with `gmtime_r` and a few digits: Foundation's ISO 8601 format style cost about
    /// 10 µs per date, which was most of `/api/feeds` over 2,000 feeds.
    public static func date(_ date: Date?) -> OrderedJSON {
        guard let date else { return .null }
        return .string(iso8601(date))
    }

    /// Whole milliseconds since 1970 of `date`, truncated: what `iso8601` shows and what
    /// `/api/episodes?since=` compares (as SQLite's `CAST(first_seen * 1000 AS INTEGER)`).
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// `date` in UTC as `YYYY-MM-DDTHH:MM:SS.mmmZ` (milliseconds truncated, so a time shown
    /// is never later than the stored one).
    public static func iso8601(_ date: Date) -> String {
        let ms = milliseconds(date)
        var seconds = time_t(ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
        let fraction = Int(ms - Int64(seconds) * 1000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil, parts.tm_year + 1900 >= 0, parts.tm_year + 1900 <= 9999 else {
            return OrderedJSON.iso8601(date)
        }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let three = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        let year = Int(parts.tm_year) + 1900
        let y = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return
            "\(y)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(three)Z"
    }

    /// `text` with its bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) as U+FFFD,
    /// as `TerminalText` shows them: a feed's title cannot reorder the page around it.
    public static func shown(_ text: String?) -> String? {
        guard let text, text.unicodeScalars.contains(where: isBidiControl) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(isBidiControl(scalar) ? "\u{FFFD}" : scalar) }
        return String(out)
    }

    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// The status words in display order.
    public static let statusOrder: [Podcast.Status] = [.waiting, .polling, .ok, .backingOff, .failing, .disabled]
}
