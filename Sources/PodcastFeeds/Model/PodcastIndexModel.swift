import Foundation

// The Podcasting 2.0 values (podcastindex.org's `podcast:` namespace) beyond the guid, funding,
// locked, persons, transcripts and chapters URL. Everything here came from the feed: lengths are
// capped, counts bounded, URLs resolved and only http(s) (`PodcastIndexLimits`), text whitespace-
// collapsed with control characters removed. Still text from outside: neutralise it for a
// terminal or page as any feed text.

/// The limits the parser holds `podcast:` values to: what is longer is cut, what is more is
/// dropped (with one warning per document and kind).
public enum PodcastIndexLimits {
    /// Characters kept of a name, title or other text value.
    public static let text = 512
    /// Bytes a URL may have; a longer one is dropped.
    public static let url = 2048
    /// `podcast:alternateEnclosure`s kept per episode.
    public static let alternateEnclosures = 32
    /// `podcast:source`s kept per alternate enclosure.
    public static let sources = 16
    /// `podcast:soundbite`s kept per episode.
    public static let soundbites = 64
    /// `podcast:transcript`s kept per episode.
    public static let transcripts = 32
    /// `podcast:person`s kept per episode.
    public static let persons = 64
    /// `podcast:remoteItem`s kept in a `podcast:podroll`.
    public static let podroll = 256
    /// `podcast:trailer`s kept per show.
    public static let trailers = 64
}

/// `podcast:alternateEnclosure`: another form of the episode's media (another bitrate, codec,
/// language, a video), with the places it can be fetched from (`podcast:source`).
public struct AlternateEnclosure: Sendable, Equatable, Codable {
    /// `type`: the MIME type (required by the spec; a form without one is dropped).
    public var mimeType: String
    /// `length` in bytes, a hint.
    public var length: Int64?
    /// `bitrate` in bits per second (the spec allows fractions).
    public var bitrate: Double?
    /// `height` in pixels, for video.
    public var height: Int?
    /// `lang`: the language of the media.
    public var language: String?
    /// `title`: a short name for this form ("Standard", "High quality").
    public var title: String?
    /// `rel`: forms with the same value are the same content.
    public var rel: String?
    /// `codecs` (RFC 6381).
    public var codecs: String?
    /// `default="true"`: the form the enclosure also points at.
    public var isDefault: Bool
    /// Each `podcast:source@uri`, resolved, in document order.
    public var sources: [String]

    /// An alternate form of the media.
    public init(
        mimeType: String, length: Int64? = nil, bitrate: Double? = nil, height: Int? = nil, language: String? = nil,
        title: String? = nil, rel: String? = nil, codecs: String? = nil, isDefault: Bool = false, sources: [String] = []
    ) {
        self.mimeType = mimeType
        self.length = length
        self.bitrate = bitrate
        self.height = height
        self.language = language
        self.title = title
        self.rel = rel
        self.codecs = codecs
        self.isDefault = isDefault
        self.sources = sources
    }
}

/// `podcast:soundbite`: a moment of the episode worth sharing.
public struct Soundbite: Sendable, Equatable, Codable {
    /// `startTime` in seconds from the start of the media.
    public var start: Double
    /// `duration` in seconds.
    public var duration: Double
    /// The element's text, if any.
    public var title: String?

    /// A soundbite of `duration` seconds from `start`.
    public init(start: Double, duration: Double, title: String? = nil) {
        self.start = start
        self.duration = duration
        self.title = title
    }
}

/// `podcast:trailer`: a trailer of the show (or of one season).
public struct Trailer: Sendable, Equatable, Codable {
    /// `url`, resolved.
    public var url: String
    /// The element's text.
    public var title: String?
    /// `pubdate` (RFC 2822).
    public var published: Date?
    /// `length` in bytes, a hint.
    public var length: Int64?
    /// `type`: the MIME type.
    public var mimeType: String?
    /// `season`: the season it is the trailer of.
    public var season: Int?

    /// A trailer at `url`.
    public init(
        url: String, title: String? = nil, published: Date? = nil, length: Int64? = nil, mimeType: String? = nil,
        season: Int? = nil
    ) {
        self.url = url
        self.title = title
        self.published = published
        self.length = length
        self.mimeType = mimeType
        self.season = season
    }
}

/// `podcast:license`: the licence of the show or episode.
public struct License: Sendable, Equatable, Codable {
    /// The element's text: an SPDX identifier or a name.
    public var name: String
    /// `url`: where the licence is written out (required by the spec for a non-SPDX name).
    public var url: String?

    /// A licence.
    public init(name: String, url: String? = nil) {
        self.name = name
        self.url = url
    }
}

/// `podcast:location`: the place the show or episode is about (or made in).
public struct Location: Sendable, Equatable, Codable {
    /// The element's text: a human-readable name.
    public var name: String
    /// `geo`: a `geo:` URI (RFC 5870), as written.
    public var geo: String?
    /// `osm`: an OpenStreetMap type and id (`R113314`), as written.
    public var osm: String?

    /// A location.
    public init(name: String, geo: String? = nil, osm: String? = nil) {
        self.name = name
        self.geo = geo
        self.osm = osm
    }
}

/// `podcast:remoteItem` inside `podcast:podroll`: a show this one recommends.
public struct RemoteItem: Sendable, Equatable, Codable {
    /// `feedGuid`: the recommended show's `podcast:guid` (required).
    public var feedGUID: String
    /// `feedUrl`, resolved.
    public var feedURL: String?
    /// `itemGuid`: one episode of it.
    public var itemGUID: String?
    /// `medium`: what the item is (`podcast`, `music`...).
    public var medium: String?

    /// A remote item.
    public init(feedGUID: String, feedURL: String? = nil, itemGUID: String? = nil, medium: String? = nil) {
        self.feedGUID = feedGUID
        self.feedURL = feedURL
        self.itemGUID = itemGUID
        self.medium = medium
    }
}

/// `podcast:updateFrequency`: how often the show says it publishes.
public struct UpdateFrequency: Sendable, Equatable, Codable {
    /// The element's text ("Weekly on Mondays").
    public var text: String?
    /// `rrule`: an RFC 5545 recurrence rule, as written.
    public var rrule: String?
    /// `complete="true"`: the show will publish no more episodes.
    public var complete: Bool
    /// `dtstart`: when the schedule starts.
    public var start: Date?

    /// A schedule.
    public init(text: String? = nil, rrule: String? = nil, complete: Bool = false, start: Date? = nil) {
        self.text = text
        self.rrule = rrule
        self.complete = complete
        self.start = start
    }

    /// The time between two episodes the rule states, in seconds: its `FREQ` (`MINUTELY` to
    /// `YEARLY`, a month as 30 days, a year as 365) times its `INTERVAL` (default 1), divided by
    /// the number of `BYDAY` days for a weekly rule. `nil` without a rule this understands. A
    /// poll interval may follow it, within the configured bounds; a complete show needs the
    /// longest.
    public var statedInterval: TimeInterval? {
        guard let rrule else { return nil }
        var parts: [String: String] = [:]
        for part in rrule.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parts[String(pair[0]).trimmedASCII] = String(pair[1]).trimmedASCII }
        }
        let unit: TimeInterval
        switch parts["FREQ"] {
        case "MINUTELY": unit = 60
        case "HOURLY": unit = 3600
        case "DAILY": unit = 86_400
        case "WEEKLY": unit = 7 * 86_400
        case "MONTHLY": unit = 30 * 86_400
        case "YEARLY": unit = 365 * 86_400
        default: return nil
        }
        let interval = parts["INTERVAL"].flatMap { Int($0) }.map { max(1, min($0, 1000)) } ?? 1
        var seconds = unit * TimeInterval(interval)
        if parts["FREQ"] == "WEEKLY", let days = parts["BYDAY"]?.split(separator: ",").count, days > 1 {
            seconds /= TimeInterval(min(days, 7))
        }
        return seconds
    }
}
