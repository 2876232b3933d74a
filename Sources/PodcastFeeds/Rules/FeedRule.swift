/// Where an element stands, for the rule table: the parser looks a rule up by (context,
/// namespace, element name).
enum FeedContext: UInt8, CaseIterable {
    /// A direct child of `<channel>` (of `<feed>` in Atom).
    case channel
    /// A direct child of the channel's `<image>`.
    case channelImage
    /// A direct child of `<itunes:owner>`.
    case owner
    /// A direct child of the feed's `<atom:author>`.
    case feedAuthor
    /// A direct child of `<redirect>` (the old way to announce a move).
    case redirect
    /// A direct child of `<item>` (of `<entry>` in Atom).
    case item
    /// Anywhere inside an item, at any depth (Media RSS inside `media:group`, Podlove chapters
    /// inside `psc:chapters`). Looked up before `item`.
    case inItem
    /// A direct child of an entry's `<atom:author>`.
    case entryAuthor
    /// A direct child of the channel's `<podcast:podroll>`.
    case podroll
}

/// The fields whose text the parser collects, each filled by `FeedState.finish`.
enum FeedField: UInt8 {
    case channelTitle, channelLink, channelDescription, channelSummary, channelSubtitle, language
    case generator, channelAuthor, ownerName, ownerEmail, keywords, channelExplicit, showType
    case newFeedURL, podcastGUID, locked, imageURL, atomIcon, atomLogo, googleplayDescription
    case itemTitle, itemLink, guid, atomID, itemDescription, contentEncoded, itemSummary, atomSummary
    case atomContent, mediaDescription, pubDate, dcDate, atomPublished, atomUpdated, duration, itemSubtitle
    case episodeType, episodeNumber, season, itemExplicit, itemAuthor, personName
    case channelCreator, channelRSSAuthor, managingEditor, feedAuthorName, newLocation
    case itemCreator, itemRSSAuthor, entryAuthorName
    case dcIssued, dcCreated, dcModified, dcTitle, mediaTitle, channelDCTitle, channelITunesSubtitle
    case xhtmlBody, feedAuthorEmail, entryAuthorEmail
    case medium, updateFrequency, license, location, trailer, podcastSeason, podcastEpisode, soundbite

    /// Which date field wins when an item has several (lower first): `pubDate`, `dc:date`,
    /// `dcterms:issued`, Atom `published` (0.3 `issued`), `dcterms:created`, Atom `updated`
    /// (0.3 `modified`), `dcterms:modified`. `nil` for fields that are not dates.
    var dateRank: Int? {
        switch self {
        case .pubDate: return 0
        case .dcDate: return 1
        case .dcIssued: return 2
        case .atomPublished: return 3
        case .dcCreated: return 4
        case .atomUpdated: return 5
        case .dcModified: return 6
        default: return nil
        }
    }
}

/// What an element's attributes give (the elements whose value is not their text, or not only).
enum FeedAction: Equatable {
    /// `atom:link`: by `rel`, the page, an enclosure, a payment link, paging.
    case atomLink
    /// `itunes:image href` (or its common typo `url`).
    case itunesImage
    /// `googleplay:image href`.
    case googlePlayImage
    /// `podcast:funding url` (the first).
    case funding
    /// RSS `enclosure url length type`.
    case enclosure
    /// `media:content url fileSize type`: an enclosure.
    case mediaContent
    /// `media:thumbnail url` (the first).
    case mediaThumbnail
    /// `psc:chapter start title href image`.
    case chapter
    /// `podcast:chapters url` (the first).
    case chaptersURL
    /// `podcast:transcript url type language`.
    case transcript
    /// `podcast:person role group href img`, then its text is the name.
    case person
    /// RSS `guid isPermaLink`, then its text is the guid.
    case guid
    /// `atom:content`: a text construct, unless its `src` points elsewhere.
    case atomContent
    /// `podcast:alternateEnclosure type length bitrate height lang title rel codecs default`.
    case alternateEnclosure
    /// `podcast:source uri` inside an alternate enclosure.
    case alternateSource
    /// `podcast:remoteItem feedGuid feedUrl itemGuid medium` inside a podroll.
    case remoteItem
    /// A `podcast:` element whose attributes and text both count (`license`, `location`,
    /// `trailer`, `season`, `episode`, `soundbite`, `updateFrequency`): its attributes now, its
    /// text (the field) at its end.
    case podcastText(FeedField)
}

/// What the parser does when an element starts where a rule applies.
enum FeedRule: Equatable {
    /// Nothing: the element is not read (its children may be).
    case ignore
    /// Collect the element's text for the field.
    case text(FeedField)
    /// Collect the element's text and its inline markup (an HTML body) for the field.
    case markup(FeedField)
    /// An Atom text construct (or an RSS title): its `type` says how markup inside is kept.
    case textConstruct(FeedField)
    /// The element opens a context for its children (an author, the owner, a redirect).
    case enter(FeedContext)
    /// Read the element's attributes.
    case attributes(FeedAction)
}

/// The parser's rules: which element, in which context, fills which field. Declared once, one
/// file per namespace (`FeedRules.rss`, `.atom`, `.itunes`, ...); `table` is their union, looked
/// up by index (no hashing). What a field's text becomes (trimming, dates, fallbacks between
/// fields) is `FeedState`'s.
///
/// Structure is not in the table but in `FeedState`: where the channel and the items are, the
/// root element, `<image>` and nested `itunes:category`.
enum FeedRules {
    /// One rule: in `context`, the element `tag` of the namespace it is declared under (or of
    /// any namespace when `anyNamespace`) does `rule`.
    struct Entry {
        var context: FeedContext
        var tag: FeedTag
        var rule: FeedRule
        var anyNamespace = false

        init(_ context: FeedContext, _ tag: FeedTag, _ rule: FeedRule, anyNamespace: Bool = false) {
            self.context = context
            self.tag = tag
            self.rule = rule
            self.anyNamespace = anyNamespace
        }
    }

    /// Every namespace's rules.
    static let declared: [(FeedNamespace, [Entry])] = [
        (.none, rss), (.atom, atom), (.itunes, itunes), (.podcast, podcastIndex), (.media, mediaRSS),
        (.content, content), (.dc, dublinCore), (.psc, podloveChapters), (.googleplay, googlePlay),
        (.xhtml, xhtml),
    ]

    private static let namespaceCount = FeedNamespace.allCases.count
    private static let tagCount = FeedTag.allCases.count

    /// The rules as one flat array indexed by (context, namespace, tag).
    static let table: Table = {
        var rules = [FeedRule](
            repeating: .ignore, count: FeedContext.allCases.count * namespaceCount * tagCount)
        for (namespace, entries) in declared {
            for entry in entries {
                let namespaces = entry.anyNamespace ? FeedNamespace.allCases : [namespace]
                for ns in namespaces {
                    let index = Table.index(entry.context, FeedKey(namespace: ns, tag: entry.tag))
                    precondition(rules[index] == .ignore, "two rules for \(entry.context) \(ns) \(entry.tag)")
                    rules[index] = entry.rule
                }
            }
        }
        return Table(rules: rules)
    }()

    /// The looked-up form of the rules.
    struct Table {
        fileprivate let rules: [FeedRule]

        @inline(__always)
        fileprivate static func index(_ context: FeedContext, _ key: FeedKey) -> Int {
            (Int(context.rawValue) &* namespaceCount &+ Int(key.namespace.rawValue)) &* tagCount
                &+ Int(key.tag.rawValue)
        }

        /// The rule for the element `key` in `context`.
        @inline(__always)
        func rule(_ context: FeedContext, _ key: FeedKey) -> FeedRule {
            rules.withUnsafeBufferPointer { $0[Table.index(context, key)] }
        }
    }
}
