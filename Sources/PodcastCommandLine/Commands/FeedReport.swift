import Foundation
import PodcastEngine
import PodcastFeeds
import PodcastStore

/// What `podcast-watch show` prints: the fetch, the channel and every item with all parsed
/// fields, as text or as one JSON document. Pure; tested with exact output.
///
/// JSON schema (keys in this order; absent values are `null`, lists may be empty; dates ISO 8601
/// UTC; durations and chapter starts in seconds; lengths in bytes):
/// ```
/// { "url", "final_url", "http_status", "content_type",
///   "content_language",              // the HTTP Content-Language header, as sent
///   "etag", "last_modified",
///   "moved_to",                      // permanent redirect target or null
///   "format",                        // "rss" | "rdf" | "atom"
///   "encoding",
///   "repaired_encoding",             // Bool: mixed encodings repaired per text run
///   "well_formed", "warnings": [String],
///   "channel": { "title", "link", "description", "subtitle", "image_url", "language",
///                "generator", "author",
///                "itunes_author",    // itunes:author alone; "author" has the fallbacks
///                "owner_name", "owner_email", "categories": [[String]],
///                "keywords": [String], "explicit", "show_type", "new_feed_url",
///                "podcast_guid", "funding_url", "payment_url", "locked",
///                "paged_feed_first", "paged_feed_next",
///                "author_email",     // the address of whoever "author" names, if given
///                "medium", "update_frequency", "license", "location", "podroll", "trailers" },
///                                    // Podcasting 2.0: OrderedJSON.podcastIndexFields(of:)
///   "episodes": [ { "identity",      // the key podcast-watch stores it under
///                   "guid", "guid_is_permalink", "title", "link", "published", "duration",
///                   "subtitle", "description",
///                   "description_html",           // as the feed wrote it: unsafe to show
///                   "description_html_sanitized", // the allow-listed form for HTML views
///                   "image_url", "episode_type", "season", "number", "explicit", "author",
///                   "itunes_author", "payment_url",
///                   "primary_enclosure",   // URL or null
///                   "enclosures": [{ "url", "length", "mime_type" }],
///                   "chapters": [{ "start", "title", "href", "image" }], "chapters_url",
///                   "transcripts": [{ "url", "mime_type", "language", "rel" }],
///                   "persons": [{ "name", "role", "group", "href", "img" }],
///                   "author_email",
///                   "season_name", "episode_display", "alternate_enclosures", "soundbites",
///                   "license", "location" } ] }  // Podcasting 2.0: OrderedJSON.podcastIndexFields(of:)
/// ```
public enum FeedReport {
    /// The JSON document for `parsed`, fetched as `response`.
    public static func json(_ parsed: ParsedFeed, response: FetchResponse) -> OrderedJSON {
        let c = parsed.channel
        let channelFields: [(String, OrderedJSON)] = [
            ("title", .string(c.title)), ("link", .string(c.link)), ("description", .string(c.description)),
            ("subtitle", .string(c.subtitle)), ("image_url", .string(c.imageURL)), ("language", .string(c.language)),
            ("generator", .string(c.generator)), ("author", .string(c.author)),
            ("itunes_author", .string(c.itunesAuthor)), ("owner_name", .string(c.ownerName)),
            ("owner_email", .string(c.ownerEmail)),
            ("categories", .array(c.categories.map { .array($0.map { .string($0) }) })),
            ("keywords", .array(c.keywords.map { .string($0) })), ("explicit", .bool(c.explicit)),
            ("show_type", .string(c.showType)), ("new_feed_url", .string(c.newFeedURL)),
            ("podcast_guid", .string(c.podcastGUID)), ("funding_url", .string(c.fundingURL)),
            ("payment_url", .string(c.paymentURL)), ("locked", .bool(c.locked)),
            ("paged_feed_first", .string(c.pagedFeedFirst)), ("paged_feed_next", .string(c.pagedFeedNext)),
            ("author_email", .string(c.authorEmail)),
        ]
        let channel = OrderedJSON.object(channelFields + OrderedJSON.podcastIndexFields(of: c))
        return .object([
            ("url", .string(MaskedURL.string(response.requestedURL))),
            ("final_url", .string(MaskedURL.string(response.effectiveURL))),
            ("http_status", .int(response.status)), ("content_type", .string(response.contentType)),
            ("content_language", .string(response.contentLanguage)), ("etag", .string(response.etag)),
            ("last_modified", .string(response.lastModified)),
            ("moved_to", .string(response.permanentRedirect.map { MaskedURL.string($0.url) })),
            ("format", .string(parsed.format.rawValue)), ("encoding", .string(parsed.encoding)),
            ("repaired_encoding", .bool(parsed.repairedEncoding)), ("well_formed", .bool(parsed.isWellFormed)),
            ("warnings", .array(parsed.warnings.map { .string($0) })),
            ("channel", channel), ("episodes", .array(parsed.episodes.map(episodeJSON))),
        ])
    }

    static func episodeJSON(_ e: Episode) -> OrderedJSON {
        let fields: [(String, OrderedJSON)] = [
            ("identity", .string(EpisodeIdentity(e).key)),
            ("guid", .string(e.guid)), ("guid_is_permalink", .bool(e.guidIsPermaLink)), ("title", .string(e.title)),
            ("link", .string(e.link)), ("published", .date(e.published)), ("duration", .number(e.duration)),
            ("subtitle", .string(e.subtitle)), ("description", .string(e.description)),
            ("description_html", .string(e.descriptionHTML)),
            ("description_html_sanitized", .string(e.sanitizedDescriptionHTML)),
            ("image_url", .string(e.imageURL)), ("episode_type", .string(e.episodeType)),
            ("season", .int(e.season)), ("number", .int(e.number)), ("explicit", .bool(e.explicit)),
            ("author", .string(e.author)), ("itunes_author", .string(e.itunesAuthor)),
            ("payment_url", .string(e.paymentURL)), ("primary_enclosure", .string(e.primaryEnclosure?.url)),
            (
                "enclosures",
                .array(
                    e.enclosures.map {
                        .object([
                            ("url", .string($0.url)), ("length", .int($0.length)), ("mime_type", .string($0.mimeType)),
                        ])
                    })
            ),
            (
                "chapters",
                .array(
                    e.chapters.map {
                        .object([
                            ("start", .number($0.start)), ("title", .string($0.title)), ("href", .string($0.href)),
                            ("image", .string($0.image)),
                        ])
                    })
            ),
            ("chapters_url", .string(e.chaptersURL)),
            (
                "transcripts",
                .array(
                    e.transcripts.map {
                        .object([
                            ("url", .string($0.url)), ("mime_type", .string($0.mimeType)),
                            ("language", .string($0.language)), ("rel", .string($0.rel)),
                        ])
                    })
            ),
            (
                "persons",
                .array(
                    e.persons.map {
                        .object([
                            ("name", .string($0.name)), ("role", .string($0.role)), ("group", .string($0.group)),
                            ("href", .string($0.href)), ("img", .string($0.img)),
                        ])
                    })
            ),
            ("author_email", .string(e.authorEmail)),
        ]
        return .object(fields + OrderedJSON.podcastIndexFields(of: e))
    }

    /// The text form: `key: value` lines, the channel first, then each item under a
    /// `--- item N ---` rule. Absent fields are left out; multi-line text is indented. Every
    /// value is neutralised for the terminal (`TerminalText.block`): it all comes from the feed
    /// or the server.
    public static func text(_ parsed: ParsedFeed, response: FetchResponse) -> String {
        var text = TextLines()
        responseLines(parsed, response, into: &text)
        text.out += "\n"
        channelLines(parsed, into: &text)
        for (i, e) in parsed.episodes.enumerated() {
            text.out += "\n--- item \(i + 1) ---\n"
            episodeLines(e, into: &text)
        }
        return text.out
    }

    // `key: value` lines; an absent or empty value is left out, multi-line text indented.
    private struct TextLines {
        var out = ""

        mutating func line(_ key: String, _ value: String?, indent: String = "") {
            guard let value, !value.isEmpty else { return }
            let body = TerminalText.block(value).split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n" + indent + String(repeating: " ", count: key.count + 2))
            out += indent + key + ": " + body + "\n"
        }
    }

    private static func responseLines(_ parsed: ParsedFeed, _ response: FetchResponse, into text: inout TextLines) {
        text.line("url", MaskedURL.string(response.requestedURL))
        if response.effectiveURL != response.requestedURL {
            text.line("final url", MaskedURL.string(response.effectiveURL))
        }
        text.line("moved to", response.permanentRedirect.map { "\(MaskedURL.string($0.url)) (HTTP \($0.status))" })
        text.line("http status", String(response.status))
        text.line("content type", response.contentType)
        text.line("content language", response.contentLanguage)
        text.line("etag", response.etag)
        text.line("last modified", response.lastModified)
        text.line(
            "format",
            parsed.format.rawValue + (parsed.encoding.map { ", " + $0 } ?? "")
                + (parsed.repairedEncoding ? ", mixed encodings repaired" : "")
                + (parsed.isWellFormed ? "" : ", NOT well-formed (recovered)"))
        for w in parsed.warnings { text.line("warning", w) }
    }

    private static func channelLines(_ parsed: ParsedFeed, into text: inout TextLines) {
        let c = parsed.channel
        text.line("title", c.title)
        text.line("link", c.link)
        text.line("description", c.description)
        text.line("subtitle", c.subtitle)
        text.line("image", c.imageURL)
        text.line("language", c.language)
        text.line("generator", c.generator)
        text.line("author", c.author)
        if c.itunesAuthor != c.author { text.line("itunes author", c.itunesAuthor) }
        text.line("owner", [c.ownerName, c.ownerEmail.map { "<\($0)>" }].compactMap { $0 }.joined(separator: " "))
        for cat in c.categories { text.line("category", cat.joined(separator: " > ")) }
        text.line("keywords", c.keywords.joined(separator: ", "))
        text.line("explicit", c.explicit.map { $0 ? "yes" : "no" })
        text.line("type", c.showType)
        text.line("new feed url", c.newFeedURL)
        text.line("podcast guid", c.podcastGUID)
        text.line("medium", c.medium)
        text.line(
            "update frequency", c.updateFrequency.map { [$0.text, $0.rrule].compactMap { $0 }.joined(separator: " ") })
        text.line("license", c.license.map(\.name))
        text.line("location", c.location.map(\.name))
        for remote in c.podroll { text.line("podroll", remote.feedURL ?? remote.feedGUID) }
        for trailer in c.trailers { text.line("trailer", trailer.url) }
        text.line("funding", c.fundingURL)
        text.line("payment", c.paymentURL)
        if c.locked { text.line("locked", "yes") }
        text.line("first page", c.pagedFeedFirst)
        text.line("next page", c.pagedFeedNext)
        text.line("items", String(parsed.episodes.count))
    }

    private static func episodeLines(_ e: Episode, into text: inout TextLines) {
        text.line("identity", EpisodeIdentity(e).key)
        text.line("guid", e.guid)
        text.line("title", e.title)
        text.line("link", e.link)
        text.line("published", e.published.map(OrderedJSON.iso8601) ?? "unknown")
        text.line("duration", e.duration.map(formatDuration))
        text.line("subtitle", e.subtitle)
        text.line("author", e.author)
        if e.itunesAuthor != e.author { text.line("itunes author", e.itunesAuthor) }
        text.line("type", e.episodeType)
        text.line("season", e.season.map(String.init).map { n in e.seasonName.map { "\(n) (\($0))" } ?? n })
        text.line("episode", e.episodeDisplay ?? e.number.map(String.init))
        text.line("explicit", e.explicit.map { $0 ? "yes" : "no" })
        text.line("image", e.imageURL)
        for enc in e.enclosures {
            let primary = enc == e.primaryEnclosure ? " (primary)" : ""
            let details = [enc.mimeType, enc.length.map { "\($0) bytes" }].compactMap { $0 }.joined(separator: ", ")
            text.line("enclosure", enc.url + (details.isEmpty ? "" : " [\(details)]") + primary)
        }
        for ch in e.chapters {
            text.line("chapter", "\(formatDuration(ch.start)) \(ch.title)" + (ch.href.map { " <\($0)>" } ?? ""))
        }
        text.line("chapters", e.chaptersURL)
        text.line("payment", e.paymentURL)
        for t in e.transcripts {
            text.line(
                "transcript",
                t.url
                    + ([t.mimeType, t.language].compactMap { $0 }.isEmpty
                        ? "" : " [" + [t.mimeType, t.language].compactMap { $0 }.joined(separator: ", ") + "]"))
        }
        for p in e.persons { text.line("person", p.name + (p.role.map { " (\($0))" } ?? "")) }
        text.line("description", e.description)
        text.line("description html", e.descriptionHTML)
    }

    /// Seconds as `H:MM:SS` (fractions kept to milliseconds when present).
    static func formatDuration(_ seconds: Double) -> String {
        // Int(_:) traps on NaN, infinity and past ±9.2e18: such a duration is shown as it is.
        guard seconds.isFinite, abs(seconds) < 1e15 else { return "\(seconds) s" }
        // Rounded to milliseconds first, so 1.9999 s shows as 0:00:02, never as 0:00:01.1000.
        let millis = Int((abs(seconds) * 1000).rounded())
        let whole = millis / 1000
        var s = (seconds < 0 ? "-" : "") + String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
        if millis % 1000 != 0 { s += String(format: ".%03d", millis % 1000) }
        return s
    }
}
