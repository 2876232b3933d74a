import Foundation
import PodcastFeeds

// The Podcasting 2.0 values as JSON, shared by `show --json` and the web API so both spell them
// the same way: keys in snake case, absent values `null`, dates ISO 8601 UTC, times in seconds.
extension OrderedJSON {
    /// The channel's `podcast:` values beyond guid, funding and locked: `"medium"`,
    /// `"update_frequency": { "text", "rrule", "complete", "start", "stated_interval" }`,
    /// `"license": { "name", "url" }`, `"location": { "name", "geo", "osm" }`,
    /// `"podroll": [{ "feed_guid", "feed_url", "item_guid", "medium" }]`,
    /// `"trailers": [{ "url", "title", "published", "length", "mime_type", "season" }]`, in that order.
    public static func podcastIndexFields(of c: Channel) -> [(String, OrderedJSON)] {
        [
            ("medium", .string(c.medium)),
            (
                "update_frequency",
                c.updateFrequency.map {
                    .object([
                        ("text", .string($0.text)), ("rrule", .string($0.rrule)), ("complete", .bool($0.complete)),
                        ("start", .date($0.start)), ("stated_interval", .number($0.statedInterval)),
                    ])
                } ?? .null
            ),
            ("license", license(c.license)), ("location", location(c.location)),
            (
                "podroll",
                .array(
                    c.podroll.map {
                        .object([
                            ("feed_guid", .string($0.feedGUID)), ("feed_url", .string($0.feedURL)),
                            ("item_guid", .string($0.itemGUID)), ("medium", .string($0.medium)),
                        ])
                    })
            ),
            (
                "trailers",
                .array(
                    c.trailers.map {
                        .object([
                            ("url", .string($0.url)), ("title", .string($0.title)), ("published", .date($0.published)),
                            ("length", .int($0.length)), ("mime_type", .string($0.mimeType)),
                            ("season", .int($0.season)),
                        ])
                    })
            ),
        ]
    }

    /// The episode's `podcast:` values beyond chapters, transcripts and persons:
    /// `"season_name"`, `"episode_display"`, `"alternate_enclosures": [{ "mime_type", "length",
    /// "bitrate", "height", "language", "title", "rel", "codecs", "default", "sources": [String] }]`,
    /// `"soundbites": [{ "start", "duration", "title" }]`, `"license"`, `"location"`, in that order.
    public static func podcastIndexFields(of e: Episode) -> [(String, OrderedJSON)] {
        [
            ("season_name", .string(e.seasonName)), ("episode_display", .string(e.episodeDisplay)),
            (
                "alternate_enclosures",
                .array(
                    e.alternateEnclosures.map {
                        .object([
                            ("mime_type", .string($0.mimeType)), ("length", .int($0.length)),
                            ("bitrate", .number($0.bitrate)), ("height", .int($0.height)),
                            ("language", .string($0.language)), ("title", .string($0.title)), ("rel", .string($0.rel)),
                            ("codecs", .string($0.codecs)), ("default", .bool($0.isDefault)),
                            ("sources", .array($0.sources.map { .string($0) })),
                        ])
                    })
            ),
            (
                "soundbites",
                .array(
                    e.soundbites.map {
                        .object([
                            ("start", .number($0.start)), ("duration", .number($0.duration)),
                            ("title", .string($0.title)),
                        ])
                    })
            ),
            ("license", license(e.license)), ("location", location(e.location)),
        ]
    }

    private static func license(_ l: License?) -> OrderedJSON {
        l.map { .object([("name", .string($0.name)), ("url", .string($0.url))]) } ?? .null
    }

    private static func location(_ l: Location?) -> OrderedJSON {
        l.map { .object([("name", .string($0.name)), ("geo", .string($0.geo)), ("osm", .string($0.osm))]) } ?? .null
    }
}
