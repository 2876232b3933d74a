import Foundation

/// The result of parsing one feed document (RSS 2.0, RSS 1.0/RDF or Atom), before it meets the
/// store. URLs are already resolved against `xml:base` and the feed URL and trimmed.
public struct ParsedFeed: Sendable, Equatable {
    /// Which dialect the root element was.
    public enum Format: String, Sendable, Equatable, Codable {
        /// RSS 0.9x / 2.0 (`<rss>`).
        case rss
        /// RSS 1.0 (`<rdf:RDF>`).
        case rdf
        /// Atom 1.0 or 0.3 (`<feed>`).
        case atom
    }

    /// The root element's dialect.
    public var format: Format
    /// Channel-level metadata.
    public var channel: Channel
    /// Items in document order (not sorted).
    public var episodes: [Episode]
    /// Problems met while parsing that did not stop it (recovered XML errors, duplicate guids,
    /// bad dates...), in the order found. Empty for a clean parse.
    public var warnings: [String]
    /// `false` when libxml2 had to recover from an XML or encoding error. The content is then what
    /// could be recovered; the store never deletes episodes because of a degraded parse.
    public var isWellFormed: Bool
    /// The character encoding the document was decoded from (for example `"UTF-8"`).
    public var encoding: String?
    /// True when the document mixed encodings and was repaired per text run: its UTF-8 runs read
    /// as UTF-8, each stray byte that is not UTF-8 as windows-1252 (a warning says how many).
    /// Text is then what the author most likely meant, but a byte could have been misread.
    public var repairedEncoding: Bool
    /// Where the reader stood when the document ended, set when libxml2 had to recover (`nil` for
    /// a well-formed parse): with a root element left open (`TruncatedDocument.unclosedRoot`),
    /// it tells a body cut inside an item from a complete one whose last tag is damaged.
    public var ending: Ending?

    /// How a document that lacks its root's end tag ended: the one fact that tells a body cut in
    /// transit (items lost) from a complete document whose last tag is damaged (nothing lost).
    public enum Ending: Sendable, Equatable {
        /// It ended inside item (or entry) number `item` (1-based): that item and any after it
        /// are missing.
        case insideItem(Int)
        /// Every item that started also ended; `channelClosed` when an RSS `</channel>` was read
        /// (nothing a reader reads can follow it).
        case afterItems(count: Int, channelClosed: Bool)
    }

    /// Builds a parse result; every collection defaults to empty.
    public init(
        format: Format, channel: Channel, episodes: [Episode] = [], warnings: [String] = [],
        isWellFormed: Bool = true, encoding: String? = nil, repairedEncoding: Bool = false
    ) {
        self.repairedEncoding = repairedEncoding
        self.format = format
        self.channel = channel
        self.episodes = episodes
        self.warnings = warnings
        self.isWellFormed = isWellFormed
        self.encoding = encoding
    }
}

/// Channel (RSS) or feed (Atom) metadata, with the iTunes and `podcast:` namespace fields.
public struct Channel: Sendable, Equatable, Codable {
    /// `<title>`, else `dc:title`, whitespace collapsed; `nil` if absent.
    public var title: String?
    /// Channel `<link>` (RSS) or `link rel="alternate"` (Atom).
    public var link: String?
    /// Plain-text description: `<description>`, else `itunes:summary`, Atom `subtitle`.
    public var description: String?
    /// Cover art: `image/url`, else `itunes:image@href` (or its `url=` misspelling), Atom `icon`/`logo`.
    public var imageURL: String?
    /// `<language>` (or `dc:language`), else the `xml:lang` of the channel or root element, else
    /// the HTTP `Content-Language` given to the parser (its first tag).
    public var language: String?
    /// `itunes:subtitle` of the channel: a one-line summary of the show.
    public var subtitle: String?
    /// `<generator>`.
    public var generator: String?
    /// Who makes the show: `itunes:author`, else `dc:creator` (or `dc:author`), else the RSS channel `<author>`,
    /// else the Atom feed's `<author><name>`s (joined with ", "), else the name in
    /// `managingEditor` (`jo@example.com (Jo Smith)` gives "Jo Smith").
    public var author: String?
    /// The e-mail address of whoever `author` names, when that source gave one (split from
    /// `dc:creator`, `<author>` or `managingEditor`, or the Atom `<author><email>`).
    public var authorEmail: String?
    /// `itunes:author` alone, as written (whitespace collapsed).
    public var itunesAuthor: String?
    /// `itunes:owner` name and e-mail.
    public var ownerName: String?
    /// `itunes:owner/itunes:email`.
    public var ownerEmail: String?
    /// `itunes:category` paths, outer to inner (for example `["Technology", "Podcasting"]`).
    public var categories: [[String]]
    /// `itunes:keywords`, split on commas and trimmed.
    public var keywords: [String]
    /// `itunes:explicit` (`yes`/`true`/`explicit` → true, `no`/`false`/`clean` → false).
    public var explicit: Bool?
    /// `itunes:type`, only `episodic` or `serial`.
    public var showType: String?
    /// `itunes:new-feed-url`: the feed announces it has moved here.
    public var newFeedURL: String?
    /// `podcast:guid`: the podcast's globally unique id.
    public var podcastGUID: String?
    /// `podcast:funding@url`.
    public var fundingURL: String?
    /// `atom:link rel="payment"`.
    public var paymentURL: String?
    /// `podcast:locked` is `yes`.
    public var locked: Bool
    /// `podcast:medium` (`podcast`, `music`, `video`, `audiobook`...), lowercased.
    public var medium: String?
    /// `podcast:updateFrequency`: the publishing schedule the show states.
    public var updateFrequency: UpdateFrequency?
    /// `podcast:license` of the show.
    public var license: License?
    /// `podcast:location` of the show.
    public var location: Location?
    /// `podcast:podroll`: the shows this one recommends.
    public var podroll: [RemoteItem] = []
    /// `podcast:trailer`s.
    public var trailers: [Trailer] = []
    /// `atom:link rel="first"` (RFC 5005 paged feeds).
    public var pagedFeedFirst: String?
    /// `atom:link rel="next"` (RFC 5005 paged feeds).
    public var pagedFeedNext: String?

    /// An empty channel; set what the document gives.
    public init(
        title: String? = nil, link: String? = nil, description: String? = nil, imageURL: String? = nil,
        language: String? = nil, subtitle: String? = nil, generator: String? = nil, author: String? = nil,
        itunesAuthor: String? = nil,
        ownerName: String? = nil, ownerEmail: String? = nil, categories: [[String]] = [],
        keywords: [String] = [], explicit: Bool? = nil, showType: String? = nil,
        newFeedURL: String? = nil, podcastGUID: String? = nil, fundingURL: String? = nil,
        paymentURL: String? = nil, locked: Bool = false, pagedFeedFirst: String? = nil,
        pagedFeedNext: String? = nil
    ) {
        self.title = title
        self.link = link
        self.description = description
        self.imageURL = imageURL
        self.language = language
        self.subtitle = subtitle
        self.generator = generator
        self.author = author
        self.itunesAuthor = itunesAuthor
        self.ownerName = ownerName
        self.ownerEmail = ownerEmail
        self.categories = categories
        self.keywords = keywords
        self.explicit = explicit
        self.showType = showType
        self.newFeedURL = newFeedURL
        self.podcastGUID = podcastGUID
        self.fundingURL = fundingURL
        self.paymentURL = paymentURL
        self.locked = locked
        self.pagedFeedFirst = pagedFeedFirst
        self.pagedFeedNext = pagedFeedNext
    }
}

extension ParsedFeed {
    /// This feed with every episode's `precomputedShowNotesHTML` set (`HTMLSanitizer`, linear in
    /// the HTML's length): run where parsing runs (a worker), so storing the show notes costs
    /// the loop no sanitising. Any thread.
    public func sanitizingShowNotes() -> ParsedFeed {
        var feed = self
        for i in feed.episodes.indices where feed.episodes[i].descriptionHTML != nil {
            feed.episodes[i].precomputedShowNotesHTML = feed.episodes[i].sanitizedDescriptionHTML
        }
        return feed
    }
}
