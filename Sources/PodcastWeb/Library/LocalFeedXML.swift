import Foundation
import PodcastFeeds
import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// The local podcast feed: RSS 2.0 with the iTunes namespace listing completed downloads
/// newest first, each enclosure pointing at the file served by this server (its real length
/// and type), so a podcast app can subscribe to the local mirror. Feed text is escaped for XML
/// and stripped of characters XML 1.0 cannot carry; show notes are the sanitiser's output
/// (`HTMLSanitizer`, again at render time), escaped as text in `description`.
///
/// Pure function of its input; any thread.
public enum LocalFeedXML {
    /// What the channel says about itself.
    public struct Channel: Sendable, Equatable {
        /// The title.
        public var title: String
        /// The web page (the original feed's link), if any.
        public var link: String?
        /// Artwork URL, if any.
        public var imageURL: String?
        /// A plain-text description.
        public var description: String

        /// A channel.
        public init(title: String, link: String?, imageURL: String?, description: String) {
            self.title = title
            self.link = link
            self.imageURL = imageURL
            self.description = description
        }
    }

    /// The document for `channel` and `entries` (already newest first); `enclosureURL` gives
    /// each entry's served URL, `contentType` its type.
    public static func render(
        channel: Channel, entries: [LocalFeedEntry], enclosureURL: (LocalFeedEntry) -> String,
        contentType: (LocalFeedEntry) -> String
    ) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel>

            """
        out += "<title>\(escape(channel.title))</title>\n"
        if let link = channel.link.flatMap(httpURL) { out += "<link>\(escape(link))</link>\n" }
        out += "<description>\(escape(channel.description))</description>\n"
        out += "<generator>podcast-watch</generator>\n"
        if let image = channel.imageURL.flatMap(httpURL) {
            out += "<itunes:image href=\"\(escape(image))\"/>\n"
            out += "<image><url>\(escape(image))</url><title>\(escape(channel.title))</title>"
            out += "<link>\(escape(channel.link.flatMap(httpURL) ?? image))</link></image>\n"
        }
        for entry in entries { out += item(entry, url: enclosureURL(entry), type: contentType(entry)) }
        out += "</channel>\n</rss>\n"
        return out
    }

    private static func item(_ entry: LocalFeedEntry, url: String, type: String) -> String {
        let e = entry.episode
        var out = "<item>\n"
        out += "<title>\(escape(e.title ?? entry.fileName))</title>\n"
        out += "<guid isPermaLink=\"false\">\(escape(guid(e)))</guid>\n"
        out += "<pubDate>\(rfc822(date(entry)))</pubDate>\n"
        if let link = e.link.flatMap(httpURL) { out += "<link>\(escape(link))</link>\n" }
        if let podcast = entry.podcastTitle { out += "<itunes:author>\(escape(podcast))</itunes:author>\n" }
        if let notes = entry.showNotesHTML.map(HTMLSanitizer.sanitize), !notes.isEmpty {
            out += "<description>\(escape(notes))</description>\n"
        } else if let text = e.description, !text.isEmpty {
            out += "<description>\(escape(text))</description>\n"
        }
        out += "<enclosure url=\"\(escape(url))\" length=\"\(entry.bytes)\" type=\"\(escape(type))\"/>\n"
        if let duration = e.duration, duration.isFinite, duration > 0 {
            out += "<itunes:duration>\(Int(duration.rounded()))</itunes:duration>\n"
        }
        out += "</item>\n"
        return out
    }

    /// The guid an entry is listed with: the feed's guid, else the store's identity key.
    public static func guid(_ e: StoredEpisode) -> String { e.guid ?? e.identity }

    /// The date an entry is listed with: its publication date, else when it was first seen.
    public static func date(_ entry: LocalFeedEntry) -> Date { entry.episode.published ?? entry.episode.firstSeen }

    /// `date` as RFC 822 with a numeric zone, as RSS 2.0 asks (`Tue, 14 Nov 2023 22:13:20 +0000`).
    public static func rfc822(_ date: Date) -> String {
        String(MediaFile.httpDate(Int64(date.timeIntervalSince1970.rounded(.down))).dropLast(3)) + "+0000"
    }

    // Only http(s) links and artwork reach the feed (a `javascript:` or `file:` URL does not).
    private static func httpURL(_ url: String) -> String? {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") ? url : nil
    }

    /// `text` escaped for XML content and attributes, with the characters XML 1.0 forbids
    /// (C0 controls but tab, LF and CR; U+FFFE, U+FFFF) and the bidi overrides dropped.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                let v = scalar.value
                if v < 0x20 || v == 0xFFFE || v == 0xFFFF || (0x7F...0x9F).contains(v) { continue }
                if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
