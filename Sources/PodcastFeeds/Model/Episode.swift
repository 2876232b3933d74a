import Foundation

/// One RSS `<item>` or Atom `<entry>`, with the iTunes and `podcast:` fields.
public struct Episode: Sendable, Equatable, Codable {
    /// RSS `<guid>` / Atom `<id>` as written (trimmed); `nil` if absent.
    public var guid: String?
    /// `<title>`, else `dc:title`, else `media:title`, whitespace collapsed.
    public var title: String?
    /// `<link>` (RSS) or `link rel="alternate"` (Atom), resolved; else RSS 1.0's `rdf:about`,
    /// else a permalink `guid` that is (or, under `xml:base` or with `isPermaLink="true"`,
    /// resolves to) an http(s) URL.
    public var link: String?
    /// Plain-text description (HTML stripped, entities decoded).
    public var description: String?
    /// HTML body: `content:encoded`, or HTML found in `description` / Atom `content`, as the feed
    /// wrote it except that relative `href`/`src` URLs are resolved (`xml:base`, document URL).
    /// **Unsafe to show as is** (it may hold `<script>`, `onclick`, `javascript:` URLs): any HTML
    /// view must use `sanitizedDescriptionHTML`.
    public var descriptionHTML: String?
    /// Publication instant, the first of `pubDate`, `dc:date`, `dcterms:issued`, Atom
    /// `published`, `dcterms:created`, Atom `updated`, `dcterms:modified` that parses; `nil` when
    /// missing or unparseable, never "now".
    public var published: Date?
    /// `itunes:duration` in seconds (fractions kept); `nil` when missing or invalid.
    public var duration: Double?
    /// Every enclosure in document order (RSS `enclosure`, `media:content`, Atom
    /// `link rel="enclosure"`), duplicates by URL removed.
    public var enclosures: [Enclosure]
    /// `itunes:subtitle`.
    public var subtitle: String?
    /// `itunes:image@href` (or `url=`) of the episode, else `media:thumbnail`.
    public var imageURL: String?
    /// `itunes:episodeType`: `full`, `trailer` or `bonus`.
    public var episodeType: String?
    /// `itunes:episode` (else a whole `podcast:episode`), positive integers only.
    public var number: Int?
    /// `itunes:season` (else `podcast:season`), positive integers only.
    public var season: Int?
    /// `itunes:explicit` of the episode.
    public var explicit: Bool?
    /// Who made the episode: `itunes:author`, else `dc:creator`, else the name in the RSS
    /// `<author>` mailbox, else the Atom entry's `<author><name>`s (joined with ", "), else, in
    /// Atom only, the feed's authors (RFC 4287 §4.2.1). An RSS item does not inherit the channel's
    /// author: `nil` there means "see `Channel.author`".
    public var author: String?
    /// The e-mail address of whoever `author` names, when that source gave one: split from the
    /// RSS `<author>` or `dc:creator` (`jo@example.com (Jo Smith)` gives `jo@example.com`), or the
    /// Atom `<author><email>`; `nil` when `author` is `itunes:author`'s.
    public var authorEmail: String?
    /// `itunes:author` of the episode alone, as written.
    public var itunesAuthor: String?
    /// Inline chapters (Podlove Simple Chapters `psc:chapter`).
    public var chapters: [Chapter]
    /// `podcast:chapters@url` (JSON chapters).
    public var chaptersURL: String?
    /// `podcast:transcript` links.
    public var transcripts: [Transcript]
    /// `podcast:person` credits.
    public var persons: [Person]
    /// `podcast:season@name`: the season's name ("Road trip").
    public var seasonName: String?
    /// `podcast:episode@display`: how the episode's number is shown ("Ep. 3a").
    public var episodeDisplay: String?
    /// `podcast:alternateEnclosure`s: other forms of the media, in document order.
    public var alternateEnclosures: [AlternateEnclosure] = []
    /// `podcast:soundbite`s.
    public var soundbites: [Soundbite] = []
    /// `podcast:license` of the episode.
    public var license: License?
    /// `podcast:location` of the episode.
    public var location: Location?
    /// `atom:link rel="payment"` of the episode.
    public var paymentURL: String?
    /// Whether the RSS `<guid>` is a permalink (`isPermaLink` absent or `true`); `false` for an
    /// Atom `<id>` or `isPermaLink="false"`; `nil` when there is no guid.
    public var guidIsPermaLink: Bool?

    /// An empty episode; set what the document gives.
    public init(
        guid: String? = nil, title: String? = nil, link: String? = nil, description: String? = nil,
        descriptionHTML: String? = nil, published: Date? = nil, duration: Double? = nil,
        enclosures: [Enclosure] = [], subtitle: String? = nil, imageURL: String? = nil,
        episodeType: String? = nil, number: Int? = nil, season: Int? = nil, explicit: Bool? = nil,
        author: String? = nil, itunesAuthor: String? = nil, chapters: [Chapter] = [], chaptersURL: String? = nil,
        transcripts: [Transcript] = [], persons: [Person] = [], paymentURL: String? = nil,
        guidIsPermaLink: Bool? = nil
    ) {
        self.guid = guid
        self.title = title
        self.link = link
        self.description = description
        self.descriptionHTML = descriptionHTML
        self.published = published
        self.duration = duration
        self.enclosures = enclosures
        self.subtitle = subtitle
        self.imageURL = imageURL
        self.episodeType = episodeType
        self.number = number
        self.season = season
        self.explicit = explicit
        self.author = author
        self.itunesAuthor = itunesAuthor
        self.chapters = chapters
        self.chaptersURL = chaptersURL
        self.transcripts = transcripts
        self.persons = persons
        self.paymentURL = paymentURL
        self.guidIsPermaLink = guidIsPermaLink
    }

    /// `descriptionHTML` through `HTMLSanitizer.sanitize`: the allow-listed, balanced HTML every
    /// HTML view of ours (the web dashboard) must use. Computed on each access (linear in the
    /// HTML's length); `nil` when there is no HTML body.
    public var sanitizedDescriptionHTML: String? {
        descriptionHTML.map(HTMLSanitizer.sanitize)
    }

    /// `sanitizedDescriptionHTML` worked out ahead of time by `ParsedFeed.sanitizingShowNotes()`
    /// (the daemon does it on its worker pool, so the store never sanitises on the loop); `nil`
    /// until then. Not from the feed: the parser leaves it `nil`.
    public var precomputedShowNotesHTML: String?

    /// The show notes as the web dashboard shows them: `precomputedShowNotesHTML` when it was
    /// worked out, else `sanitizedDescriptionHTML` (computed now); `nil` without an HTML body.
    public var showNotesHTML: String? {
        guard descriptionHTML != nil else { return nil }
        return precomputedShowNotesHTML ?? sanitizedDescriptionHTML
    }

    /// The enclosure to download: the first whose MIME type is `audio/*` or `video/*`, else the
    /// first whose URL has a known media extension, else the first one; `nil` if none.
    public var primaryEnclosure: Enclosure? {
        enclosures.first { $0.isAudioOrVideo } ?? enclosures.first
    }
}

/// A media file attached to an episode.
public struct Enclosure: Sendable, Equatable, Hashable, Codable {
    /// The file's URL, resolved and trimmed.
    public var url: String
    /// The declared size in bytes; only a hint, `nil` when missing, zero, negative or not a number.
    public var length: Int64?
    /// The declared MIME type (for example `audio/mpeg`); `nil` when missing or without a `/`.
    public var mimeType: String?

    /// An enclosure; `length` and `mimeType` are hints.
    public init(url: String, length: Int64? = nil, mimeType: String? = nil) {
        self.url = url
        self.length = length
        self.mimeType = mimeType
    }

    /// True when the MIME type is `audio/*` or `video/*`, or (no usable type) the URL path ends in
    /// a common audio/video extension.
    public var isAudioOrVideo: Bool {
        if let type = mimeType?.lowercased(), type.hasPrefix("audio/") || type.hasPrefix("video/") {
            return true
        }
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init)?.lowercased() ?? ""
        return ["mp3", "m4a", "aac", "ogg", "oga", "opus", "flac", "wav", "mp4", "m4v", "mov", "webm", "mkv"]
            .contains { path.hasSuffix("." + $0) }
    }
}

/// An inline chapter mark.
public struct Chapter: Sendable, Equatable, Codable {
    /// Start offset in seconds from the beginning of the episode.
    public var start: Double
    /// The chapter's title.
    public var title: String
    /// An optional link for the chapter.
    public var href: String?
    /// An optional image for the chapter.
    public var image: String?

    /// A chapter mark starting `start` seconds in.
    public init(start: Double, title: String, href: String? = nil, image: String? = nil) {
        self.start = start
        self.title = title
        self.href = href
        self.image = image
    }
}

/// A `podcast:transcript` link.
public struct Transcript: Sendable, Equatable, Codable {
    /// Where the transcript is.
    public var url: String
    /// Its MIME type (for example `text/vtt`).
    public var mimeType: String?
    /// Its language, if given.
    public var language: String?
    /// `rel`: `captions` for a transcript made to be shown as captions.
    public var rel: String?

    /// A transcript link.
    public init(url: String, mimeType: String? = nil, language: String? = nil, rel: String? = nil) {
        self.url = url
        self.mimeType = mimeType
        self.language = language
        self.rel = rel
    }
}

/// A `podcast:person` credit.
public struct Person: Sendable, Equatable, Codable {
    /// The person's name (element text).
    public var name: String
    /// `role`, default `host`.
    public var role: String?
    /// `group`, default `cast`.
    public var group: String?
    /// `href`: a page about the person.
    public var href: String?
    /// `img`: a picture of the person.
    public var img: String?

    /// A person credit.
    public init(name: String, role: String? = nil, group: String? = nil, href: String? = nil, img: String? = nil) {
        self.name = name
        self.role = role
        self.group = group
        self.href = href
        self.img = img
    }
}
