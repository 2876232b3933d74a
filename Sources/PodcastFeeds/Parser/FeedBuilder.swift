import Foundation

/// Receives libxml2's SAX events for a feed and forwards them to `FeedState`. The state is a
/// struct so that each callback costs one access, not one per field touched; that access is not
/// checked at run time (`@exclusivity(unchecked)`): the builder is only ever driven by one
/// parse on one thread, the SAX callbacks never overlap, and the dynamic check cost as much as
/// the text copying it guarded.
final class FeedBuilder: XMLReaderHandler {
    @exclusivity(unchecked) private(set) var state: FeedState

    init(documentURL: String?) {
        state = FeedState(documentURL: documentURL)
    }

    var format: ParsedFeed.Format? { state.format }
    var rejectedRoot: String? { state.rejectedRoot }
    var warnings: [String] { state.warnings }
    var names: FeedNameTable { state.names }

    override func startElement(_ element: XMLStartElement) {
        state.startElement(element)
        if state.stopRequested { stopParsing() }
    }

    override func endElement() {
        state.endElement()
    }

    override func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        state.characters(bytes, count)
    }

    /// The channel and episodes; see `FeedState.result()`.
    func result(httpContentLanguage: String? = nil) -> (Channel, [Episode]) {
        state.result(httpContentLanguage: httpContentLanguage)
    }
}

/// Builds a `ParsedFeed` from SAX events: RSS 0.9x/2.0, RSS 1.0 (RDF), Atom 1.0/0.3, with the
/// iTunes, `podcast:`, Media RSS, `content:`, Dublin Core, Podlove chapters and Google Play
/// vocabularies. Text is collected as bytes for the one field being read and decoded once at
/// its end tag; element names are compared as interned enums, never as strings.
struct FeedState {
    private(set) var stopRequested = false
    private let documentURL: String?
    private(set) var format: ParsedFeed.Format?
    /// The root element's name when it is not a feed; the parse was stopped.
    private(set) var rejectedRoot: String?
    private(set) var warnings: [String] = []
    private(set) var names = FeedNameTable()

    // Assigned in `init`: a default value here was built and then copied field by field.
    private var channel: Channel
    private var episodes: [Episode] = []

    // Where we are.
    private var stack: [FeedKey] = []
    private var bases: [(depth: Int, url: String)] = []
    private var channelDepth = -1
    private var imageDepth = 0
    private var ownerDepth = 0
    private var authorDepth = 0
    private var redirectDepth = 0
    private var categoryLevel = 0

    // Channel values that need a choice at the end.
    private var channelDescription: String?
    private var channelSummary: String?
    private var channelSubtitle: (String, TextType)?
    private var googleplayDescription: String?
    private var rssImage: String?
    private var itunesImage: String?
    private var atomIcon: String?
    private var atomLogo: String?
    private var googleplayImage: String?
    private var channelCreator: String?
    private var channelRSSAuthor: String?
    private var managingEditor: String?
    private var feedAtomAuthors: [String] = []
    private var rootLanguage: String?
    private var channelLanguage: String?
    private var channelDCTitle: String?

    // The item being read.
    private var inItem = false
    private var episode: Episode
    private var itemDepth = 0
    private var itemIndex = 0
    private var draft = ItemDraft()

    // The field whose text is being collected.
    private var field: Field?
    private var fieldType = TextType.text
    /// The field's text is base64 (Atom content of a non-text media type, Atom 0.3 `mode="base64"`).
    private var fieldBase64 = false
    private var captureDepth = 0
    private var captureMarkup = false
    private var markupNames: [String] = []
    private var wrapperDepth = 0
    private let text = TextBuffer(capacity: 4096)

    enum TextType { case text, html, xhtml }

    private struct ItemDraft {
        var rssDescription: String?
        var contentEncoded: String?
        var itunesSummary: String?
        var atomSummary: (String, TextType)?
        var atomContent: (String, TextType)?
        var mediaDescription: String?
        var dateRank = Int.max
        var guidIsPermaLink = true
        var itunesImage: String?
        var thumbnail: String?
        var person: Person?
        var dcCreator: String?
        var rssAuthor: String?
        var atomAuthors: [String] = []
        var guidPermaLinkExplicit = false
        var rdfAbout: String?
        var dcTitle: String?
        var mediaTitle: String?
        /// The permalink guid resolved where it stood, when it may serve as the link.
        var guidLink: String?
    }

    private enum Field {
        case channelTitle, channelLink, channelDescription, channelSummary, channelSubtitle, language
        case generator, channelAuthor, ownerName, ownerEmail, keywords, channelExplicit, showType
        case newFeedURL, podcastGUID, locked, imageURL, atomIcon, atomLogo, googleplayDescription
        case itemTitle, itemLink, guid, atomID, itemDescription, contentEncoded, itemSummary, atomSummary
        case atomContent, mediaDescription, pubDate, dcDate, atomPublished, atomUpdated, duration, itemSubtitle,
            episodeType
        case episodeNumber, season, itemExplicit, itemAuthor, personName
        case channelCreator, channelRSSAuthor, managingEditor, feedAuthorName, newLocation
        case itemCreator, itemRSSAuthor, entryAuthorName
        case dcIssued, dcCreated, dcModified, dcTitle, mediaTitle, channelDCTitle, channelITunesSubtitle
    }

    /// Which date field wins when an item has several (lower first): `pubDate`, `dc:date`,
    /// `dcterms:issued`, Atom `published` (0.3 `issued`), `dcterms:created`, Atom `updated`
    /// (0.3 `modified`), `dcterms:modified`. `nil` for fields that are not dates.
    private static func dateRank(_ field: Field) -> Int? {
        switch field {
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

    init(documentURL: String?) {
        self.documentURL = documentURL
        channel = Channel()
        episode = Episode()
    }

    private var currentBase: String? { bases.last?.url ?? documentURL }

    private func resolve(_ reference: String) -> String {
        URLResolver.resolve(reference, against: currentBase)
    }

    private func resolveMarkup(_ html: String) -> String {
        HTMLURLResolution.resolve(html, against: currentBase)
    }

    // MARK: - Events

    mutating func startElement(_ element: XMLStartElement) {
        var key = names.key(for: element)
        if format == .atom && key.namespace == .none { key.namespace = .atom }
        if let base = element.xmlBase {
            bases.append((stack.count + 1, resolve(base)))
        }
        stack.append(key)
        let depth = stack.count

        if field != nil {
            if captureMarkup { startMarkup(element, key: key, depth: depth) }
            return
        }
        if depth == 1 {
            startRoot(key, element)
        } else if inItem {
            startInItem(key, element, depth: depth)
        } else {
            startInChannel(key, element, depth: depth)
        }
    }

    mutating func endElement() {
        let depth = stack.count
        guard let key = stack.popLast() else { return }
        defer {
            if let last = bases.last, last.depth == depth { bases.removeLast() }
        }
        if let current = field {
            if depth == captureDepth {
                field = nil
                finish(current)
            } else if captureMarkup {
                endMarkup(depth: depth)
            }
            return
        }
        if inItem && depth == itemDepth {
            finishItem()
            return
        }
        if depth == imageDepth { imageDepth = 0 }
        if depth == ownerDepth { ownerDepth = 0 }
        if depth == authorDepth { authorDepth = 0 }
        if depth == redirectDepth { redirectDepth = 0 }
        if key.namespace == .itunes && key.tag == .category && categoryLevel > 0 { categoryLevel -= 1 }
    }

    mutating func characters(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
        guard field != nil else { return }
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        if captureMarkup && (!markupNames.isEmpty || fieldType == .xhtml) {
            appendEscaped(buffer)
        } else {
            text.append(bytes, count)
        }
    }

    // MARK: - Root and channel

    private mutating func startRoot(_ key: FeedKey, _ element: XMLStartElement) {
        switch key.tag {
        case .rss:
            format = .rss
            rootLanguage = element.xmlLang.flatMap(nonEmptyTrimmed)
        case .rdf:
            format = .rdf
            rootLanguage = element.xmlLang.flatMap(nonEmptyTrimmed)
        case .feed:
            format = .atom
            channelDepth = 1
            rootLanguage = element.xmlLang.flatMap(nonEmptyTrimmed)
        case .redirect where key.namespace == .none:
            // A document that is only `<redirect><newLocation>URL</newLocation></redirect>`: the
            // old way a feed announced its move. An empty RSS feed that points elsewhere.
            format = .rss
            redirectDepth = 1
            warn("the document is only a <redirect> to a new location")
        default:
            let prefix = element.prefix.map { String(cString: $0) + ":" } ?? ""
            rejectedRoot = prefix + String(cString: element.localname)
            stopRequested = true
        }
    }

    private mutating func startInChannel(_ key: FeedKey, _ element: XMLStartElement, depth: Int) {
        let ns = key.namespace
        if format == .atom {
            if ns == .atom && key.tag == .entry {
                beginItem(depth: depth)
                return
            }
        } else {
            if ns == .none && key.tag == .item {
                beginItem(depth: depth)
                // RSS 1.0: the item's `rdf:about` is its URL, the link when there is no <link>.
                if format == .rdf, let about = element.attribute("about") { draft.rdfAbout = nonEmpty(resolve(about)) }
                return
            }
            if ns == .none && key.tag == .channel && depth == 2 {
                channelDepth = 2
                channelLanguage = element.xmlLang.flatMap(nonEmptyTrimmed)
                return
            }
        }
        if ns == .none && key.tag == .image && (depth == channelDepth + 1 || (format == .rdf && depth == 2)) {
            imageDepth = depth
            return
        }
        if imageDepth > 0 {
            if depth == imageDepth + 1 && ns == .none && key.tag == .url { begin(.imageURL, depth: depth) }
            return
        }
        if ownerDepth > 0 {
            if depth == ownerDepth + 1 && ns == .itunes {
                if key.tag == .name { begin(.ownerName, depth: depth) }
                if key.tag == .email { begin(.ownerEmail, depth: depth) }
            }
            return
        }
        if authorDepth > 0 {
            if depth == authorDepth + 1 && ns == .atom && key.tag == .name { begin(.feedAuthorName, depth: depth) }
            return
        }
        if redirectDepth > 0 {
            if depth == redirectDepth + 1 && key.tag == .newLocation { begin(.newLocation, depth: depth) }
            return
        }
        // `<redirect>` directly under `<rss>` (outside the channel) counts too.
        if ns == .none && key.tag == .redirect && depth == 2 && format == .rss {
            redirectDepth = depth
            return
        }
        if ns == .itunes && key.tag == .category {
            if categoryLevel == 0 {
                guard depth == channelDepth + 1 else { return }
                channel.categories.append([HTMLText.squash(element.attribute("text") ?? "", keepNewlines: false)])
                categoryLevel = 1
            } else {
                let name = HTMLText.squash(element.attribute("text") ?? "", keepNewlines: false)
                if !name.isEmpty, !channel.categories.isEmpty {
                    channel.categories[channel.categories.count - 1].append(name)
                }
                categoryLevel += 1
            }
            return
        }
        // Channel fields are direct children of <channel> (<feed> in Atom); this keeps the titles
        // of <image>, <textinput> and RSS 1.0's root-level siblings out.
        guard depth == channelDepth + 1, stack[depth - 2].tag == (format == .atom ? .feed : .channel) else { return }
        switch (ns, key.tag) {
        case (.none, .title), (.atom, .title): beginText(.channelTitle, depth: depth, element)
        case (.none, .link): begin(.channelLink, depth: depth)
        case (.atom, .link): atomLink(element, inItem: false)
        case (.none, .description): begin(.channelDescription, depth: depth, markup: true)
        case (.itunes, .summary): begin(.channelSummary, depth: depth, markup: true)
        case (.atom, .subtitle), (.atom, .tagline):
            beginText(.channelSubtitle, depth: depth, element)
        case (.googleplay, .description): begin(.googleplayDescription, depth: depth)
        case (.none, .language), (.dc, .language): begin(.language, depth: depth)
        case (.none, .generator), (.atom, .generator): begin(.generator, depth: depth)
        case (.itunes, .author): begin(.channelAuthor, depth: depth)
        case (.itunes, .subtitle): begin(.channelITunesSubtitle, depth: depth)
        case (.dc, .title): begin(.channelDCTitle, depth: depth)
        case (.dc, .creator): begin(.channelCreator, depth: depth)
        case (.none, .author): begin(.channelRSSAuthor, depth: depth)
        case (.none, .managingEditor): begin(.managingEditor, depth: depth)
        case (.atom, .author): authorDepth = depth
        case (.none, .redirect): redirectDepth = depth
        case (.itunes, .owner): ownerDepth = depth
        case (.itunes, .image):
            // `url=` is a common typo of `href=`; read it when `href` is missing.
            if itunesImage == nil, let href = element.attribute("href") ?? element.attribute("url") {
                itunesImage = nonEmpty(resolve(href))
            }
        case (.googleplay, .image):
            if googleplayImage == nil, let href = element.attribute("href") {
                googleplayImage = nonEmpty(resolve(href))
            }
        case (.atom, .icon): begin(.atomIcon, depth: depth)
        case (.atom, .logo): begin(.atomLogo, depth: depth)
        case (.itunes, .keywords): begin(.keywords, depth: depth)
        case (.itunes, .explicit): begin(.channelExplicit, depth: depth)
        case (.itunes, .type): begin(.showType, depth: depth)
        case (.itunes, .newFeedURL): begin(.newFeedURL, depth: depth)
        case (.podcast, .guid): begin(.podcastGUID, depth: depth)
        case (.podcast, .funding):
            if channel.fundingURL == nil, let url = element.attribute("url") {
                channel.fundingURL = nonEmpty(resolve(url))
            }
        case (.podcast, .locked): begin(.locked, depth: depth)
        default: break
        }
    }

    // MARK: - Items

    private mutating func beginItem(depth: Int) {
        inItem = true
        // `episode` is already a fresh `Episode()`: the initial value, or what `finishItem` swapped
        // in (only `finishItem` leaves an item). Assigning another would destroy and rebuild it.
        itemDepth = depth
        itemIndex += 1
        draft = ItemDraft()
    }

    private mutating func startInItem(_ key: FeedKey, _ element: XMLStartElement, depth: Int) {
        let ns = key.namespace
        // Media RSS and chapters count anywhere inside the item (`media:group`, `psc:chapters`).
        switch (ns, key.tag) {
        case (.media, .content):
            addEnclosure(
                url: element.attribute("url"), length: element.attribute("fileSize"), type: element.attribute("type"))
            return
        case (.media, .thumbnail):
            if draft.thumbnail == nil, let url = element.attribute("url") { draft.thumbnail = nonEmpty(resolve(url)) }
            return
        case (.media, .description):
            begin(.mediaDescription, depth: depth, markup: true)
            return
        case (.media, .title):
            begin(.mediaTitle, depth: depth)
            return
        case (.psc, .chapter):
            addChapter(element)
            return
        default:
            break
        }
        if authorDepth > 0 {
            if depth == authorDepth + 1 && ns == .atom && key.tag == .name { begin(.entryAuthorName, depth: depth) }
            return
        }
        guard depth == itemDepth + 1 else { return }
        switch (ns, key.tag) {
        case (.none, .title), (.atom, .title): beginText(.itemTitle, depth: depth, element)
        case (.none, .link): begin(.itemLink, depth: depth)
        case (.atom, .link): atomLink(element, inItem: true)
        case (.none, .guid):
            let permaLink = element.attribute("isPermaLink", isLowercased: "true")
            draft.guidIsPermaLink = permaLink ?? true
            draft.guidPermaLinkExplicit = permaLink == true
            begin(.guid, depth: depth)
        case (.atom, .id): begin(.atomID, depth: depth)
        case (.none, .description): begin(.itemDescription, depth: depth, markup: true)
        case (.content, .encoded): begin(.contentEncoded, depth: depth, markup: true)
        case (.itunes, .summary): begin(.itemSummary, depth: depth, markup: true)
        case (.atom, .summary): beginText(.atomSummary, depth: depth, element)
        case (.atom, .content):
            if element.attribute("src") == nil {
                beginText(.atomContent, depth: depth, element)
            }
        case (.none, .pubdate): begin(.pubDate, depth: depth)
        case (.dc, .date): begin(.dcDate, depth: depth)
        case (.dc, .issued): begin(.dcIssued, depth: depth)
        case (.dc, .created): begin(.dcCreated, depth: depth)
        case (.dc, .modified): begin(.dcModified, depth: depth)
        case (.dc, .title): begin(.dcTitle, depth: depth)
        case (.atom, .published), (.atom, .issued): begin(.atomPublished, depth: depth)
        case (.atom, .updated), (.atom, .modified): begin(.atomUpdated, depth: depth)
        case (.none, .enclosure):
            addEnclosure(
                url: element.attribute("url"), length: element.attribute("length"), type: element.attribute("type"))
        case (.itunes, .duration): begin(.duration, depth: depth)
        case (.itunes, .subtitle): begin(.itemSubtitle, depth: depth)
        case (.itunes, .image):
            if draft.itunesImage == nil, let href = element.attribute("href") ?? element.attribute("url") {
                draft.itunesImage = nonEmpty(resolve(href))
            }
        case (.itunes, .episodeType): begin(.episodeType, depth: depth)
        case (.itunes, .episode): begin(.episodeNumber, depth: depth)
        case (.itunes, .season): begin(.season, depth: depth)
        case (.itunes, .explicit): begin(.itemExplicit, depth: depth)
        case (.itunes, .author): begin(.itemAuthor, depth: depth)
        case (.dc, .creator): begin(.itemCreator, depth: depth)
        case (.none, .author): begin(.itemRSSAuthor, depth: depth)
        case (.atom, .author): authorDepth = depth
        case (.podcast, .chapters):
            if episode.chaptersURL == nil, let url = element.attribute("url") {
                episode.chaptersURL = nonEmpty(resolve(url))
            }
        case (.podcast, .transcript):
            if let raw = element.attribute("url"), case let url = resolve(raw), !url.isEmpty {
                episode.transcripts.append(
                    Transcript(
                        url: url, mimeType: nonEmpty(element.attribute("type")),
                        language: nonEmpty(element.attribute("language"))))
            }
        case (.podcast, .person):
            draft.person = Person(
                name: "", role: nonEmpty(element.attribute("role")?.lowercased()) ?? "host",
                group: nonEmpty(element.attribute("group")?.lowercased()) ?? "cast",
                href: nonEmpty(element.attribute("href").map { resolve($0) }),
                img: nonEmpty(element.attribute("img").map { resolve($0) }))
            begin(.personName, depth: depth)
        default: break
        }
    }

    private mutating func atomLink(_ element: XMLStartElement, inItem: Bool) {
        guard let href = element.attribute("href") else { return }
        let url = resolve(href)
        guard !url.isEmpty else { return }
        let rel = (element.attribute("rel") ?? "alternate").trimmedASCII.lowercased()
        let type = element.attribute("type")?.lowercased()
        switch rel {
        case "enclosure":
            if inItem { addEnclosure(url: href, length: element.attribute("length"), type: element.attribute("type")) }
        case "payment":
            if inItem { episode.paymentURL = url } else { channel.paymentURL = url }
        case "first":
            if !inItem { channel.pagedFeedFirst = url }
        case "next":
            if !inItem { channel.pagedFeedNext = url }
        case "alternate":
            guard type == nil || type == "text/html" || type == "html" || type == "application/xhtml+xml" else {
                return
            }
            if inItem {
                if episode.link == nil { episode.link = url }
            } else if channel.link == nil {
                channel.link = url
            }
        default:
            break
        }
    }

    private mutating func addEnclosure(url raw: String?, length: String?, type: String?) {
        guard let raw else { return }
        let url = resolve(raw)
        guard !url.isEmpty, inItem else { return }
        if episode.enclosures.contains(where: { $0.url == url }) { return }
        let size = length.flatMap { Int64($0.trimmedASCII) }.flatMap { $0 > 0 ? $0 : nil }
        let mime = type?.trimmedASCII
        episode.enclosures.append(
            Enclosure(url: url, length: size, mimeType: mime.flatMap { $0.utf8.contains(UInt8(ascii: "/")) ? $0 : nil })
        )
    }

    private mutating func addChapter(_ element: XMLStartElement) {
        guard let startText = element.attribute("start"), let title = element.attribute("title") else {
            warn("item \(itemIndex): psc:chapter without start or title ignored")
            return
        }
        guard let start = DurationParser.parse(startText) else {
            warn("item \(itemIndex): psc:chapter start \"\(startText)\" is not a time; ignored")
            return
        }
        episode.chapters.append(
            Chapter(
                start: start, title: title, href: nonEmpty(element.attribute("href").map { resolve($0) }),
                image: nonEmpty(element.attribute("image").map { resolve($0) })))
    }

    private mutating func finishItem() {
        inItem = false
        // Descriptions: one HTML body, one plain text.
        let rss = draft.rssDescription.flatMap(nonEmptyTrimmed)
        let rssIsHTML = rss.map(HTMLText.looksLikeHTML) ?? false
        func html(_ candidate: (String, TextType)?) -> String? {
            guard let (value, type) = candidate, type != .text else { return nil }
            return nonEmptyTrimmed(value)
        }
        let summary = draft.itunesSummary.flatMap(nonEmptyTrimmed)
        episode.descriptionHTML =
            draft.contentEncoded.flatMap(nonEmptyTrimmed)
            ?? (rssIsHTML ? rss : nil)
            ?? html(draft.atomContent) ?? html(draft.atomSummary)
            ?? summary.flatMap { HTMLText.looksLikeHTML($0) ? $0 : nil }
        episode.description =
            (rssIsHTML ? nil : rss.map(HTMLText.squashKeepingLines))
            ?? summary.flatMap(Self.plain)
            ?? draft.atomSummary.flatMap(Self.plain)
            ?? draft.mediaDescription.flatMap(Self.plain)
            ?? draft.atomContent.flatMap { $0.1 == .text ? Self.plain($0) : nil }
            ?? episode.descriptionHTML.flatMap { nonEmpty(HTMLText.plainText(fromHTML: $0)) }
        episode.imageURL = draft.itunesImage ?? draft.thumbnail
        if episode.title == nil { episode.title = draft.dcTitle ?? draft.mediaTitle }
        if episode.link == nil, let about = draft.rdfAbout { episode.link = about }
        // Authors: iTunes, Dublin Core, RSS <author>, Atom <author><name> (several joined); an
        // Atom entry with none inherits the feed's in `result()` (RFC 4287 §4.2.1).
        episode.author =
            episode.itunesAuthor ?? draft.dcCreator ?? draft.rssAuthor
            ?? (draft.atomAuthors.isEmpty ? nil : draft.atomAuthors.joined(separator: ", "))
        if episode.link == nil, episode.guidIsPermaLink == true, let guid = draft.guidLink ?? episode.guid,
            guid.lowercased().hasPrefix("http://") || guid.lowercased().hasPrefix("https://")
        {
            episode.link = guid
        }
        // Move the finished episode out without copying its fields.
        var finished = Episode()
        swap(&finished, &episode)
        episodes.append(consume finished)
    }

    // MARK: - Text capture

    private mutating func begin(_ newField: Field, depth: Int, markup: Bool = false, type: TextType = .text) {
        field = newField
        fieldType = type
        captureDepth = depth
        captureMarkup = markup
        // markupNames is usually empty already; removeAll would still go through replaceSubrange.
        if !markupNames.isEmpty { markupNames.removeAll(keepingCapacity: true) }
        wrapperDepth = 0
        fieldBase64 = false
        text.removeAll()
    }

    /// Starts an Atom text construct (or an RSS title): its type decides how markup inside is
    /// kept. XHTML is re-serialised (so escaped text stays text and `<script>` can be dropped when
    /// rendering plain text); base64 content is decoded at the end.
    private mutating func beginText(_ newField: Field, depth: Int, _ element: XMLStartElement) {
        let (type, base64) = Self.textType(element)
        begin(
            newField, depth: depth,
            markup: type == .xhtml || newField == .atomSummary || newField == .atomContent
                || newField == .channelSubtitle, type: type)
        fieldBase64 = base64
    }

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    /// Re-serialises a child element of an HTML-bearing field (inline markup, Atom XHTML).
    private mutating func startMarkup(_ element: XMLStartElement, key: FeedKey, depth: Int) {
        if fieldType == .xhtml && depth == captureDepth + 1 && key.tag == .div && wrapperDepth == 0
            && text.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
        {
            wrapperDepth = depth  // RFC 4287 §3.1.1.3: the xhtml:div is not part of the content
            text.removeAll()
            return
        }
        let name = String(cString: element.localname)
        text.append(UInt8(ascii: "<"))
        text.append(contentsOf: name.utf8)
        for (attribute, value) in element.allAttributes where !attribute.hasPrefix("xmlns") {
            text.append(contentsOf: " \(attribute)=\"".utf8)
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "&"): text.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "\""): text.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "<"): text.append(contentsOf: "&lt;".utf8)
                default: text.append(byte)
                }
            }
            text.append(UInt8(ascii: "\""))
        }
        if Self.voidElements.contains(name.lowercased()) {
            text.append(contentsOf: "/>".utf8)
            markupNames.append("")
        } else {
            text.append(UInt8(ascii: ">"))
            markupNames.append(name)
        }
    }

    private mutating func endMarkup(depth: Int) {
        if depth == wrapperDepth {
            wrapperDepth = 0
            return
        }
        guard let name = markupNames.popLast(), !name.isEmpty else { return }
        text.append(contentsOf: "</".utf8)
        text.append(contentsOf: name.utf8)
        text.append(UInt8(ascii: ">"))
    }

    private mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        for byte in buffer {
            switch byte {
            case UInt8(ascii: "&"): text.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): text.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): text.append(contentsOf: "&gt;".utf8)
            default: text.append(byte)
            }
        }
    }

    private mutating func finish(_ finished: Field) {
        if finishFromBytes(finished) { return }
        var value = HTMLText.decode(text.bytes)
        if fieldBase64 {
            if let decoded = Self.base64Text(value) {
                value = decoded
            } else {
                warn("item \(itemIndex): base64 content that is not UTF-8 text dropped")
                value = ""
            }
        }
        switch finished {
        case .channelTitle: channel.title = nonEmpty(Self.title(value, fieldType))
        case .channelLink: if let url = nonEmpty(resolve(value)) { channel.link = url }
        case .channelDescription: channelDescription = value
        case .channelSummary: channelSummary = value
        case .channelSubtitle: channelSubtitle = (value, fieldType)
        case .googleplayDescription: googleplayDescription = value
        case .language: channel.language = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .generator: channel.generator = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .channelAuthor: channel.itunesAuthor = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .ownerName: channel.ownerName = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .ownerEmail: channel.ownerEmail = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .keywords:
            channel.keywords = value.split(separator: ",").map { HTMLText.squash(String($0), keepNewlines: false) }
                .filter { !$0.isEmpty }
        case .channelExplicit: channel.explicit = Self.explicit(value)
        case .showType:
            let type = value.trimmedASCII.lowercased()
            if type == "episodic" || type == "serial" { channel.showType = type }
        case .newFeedURL: if let url = nonEmpty(resolve(value)) { channel.newFeedURL = url }
        case .podcastGUID: channel.podcastGUID = nonEmptyTrimmed(value)
        case .locked: channel.locked = value.trimmedASCII.lowercased() == "yes"
        case .imageURL: rssImage = nonEmpty(resolve(value))
        case .atomIcon: atomIcon = nonEmpty(resolve(value))
        case .atomLogo: atomLogo = nonEmpty(resolve(value))

        case .itemTitle: episode.title = nonEmpty(Self.title(value, fieldType))
        case .itemLink: if let url = nonEmpty(resolve(value)) { episode.link = url }
        case .guid:
            if let guid = nonEmptyTrimmed(value) {
                episode.guid = guid
                episode.guidIsPermaLink = draft.guidIsPermaLink
                // A relative permalink is a link only when the feed says so: `isPermaLink="true"`
                // written out, or an `xml:base` in scope to resolve it against.
                if draft.guidIsPermaLink, draft.guidPermaLinkExplicit || !bases.isEmpty {
                    draft.guidLink = resolve(guid)
                }
            }
        case .atomID:
            if let id = nonEmptyTrimmed(value) {
                episode.guid = id
                episode.guidIsPermaLink = false
            }
        // HTML bodies get their relative URLs resolved against the base in scope here.
        case .itemDescription: draft.rssDescription = resolveMarkup(value)
        case .contentEncoded: draft.contentEncoded = resolveMarkup(value)
        case .itemSummary: draft.itunesSummary = resolveMarkup(value)
        case .atomSummary: draft.atomSummary = (fieldType == .text ? value : resolveMarkup(value), fieldType)
        case .atomContent: draft.atomContent = (fieldType == .text ? value : resolveMarkup(value), fieldType)
        case .mediaDescription: if draft.mediaDescription == nil { draft.mediaDescription = value }
        case .pubDate, .dcDate, .atomPublished, .atomUpdated, .dcIssued, .dcCreated, .dcModified:
            guard let rank = Self.dateRank(finished), rank < draft.dateRank else { break }
            let trimmed = value.trimmedASCII
            if let date = DateParser.parse(trimmed) {
                episode.published = date
                draft.dateRank = rank
            } else if !trimmed.isEmpty {
                warn("item \(itemIndex): unparseable date \"\(trimmed)\"")
            }
        case .duration:
            let trimmed = value.trimmedASCII
            if let seconds = DurationParser.parse(trimmed) {
                episode.duration = seconds
            } else if !trimmed.isEmpty {
                warn("item \(itemIndex): unparseable itunes:duration \"\(trimmed)\"")
            }
        case .itemSubtitle: episode.subtitle = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .episodeType:
            let type = value.trimmedASCII.lowercased()
            if ["full", "trailer", "bonus"].contains(type) { episode.episodeType = type }
        case .episodeNumber:
            if let number = Int(value.trimmedASCII), number > 0 { episode.number = number }
        case .season:
            if let season = Int(value.trimmedASCII), season > 0 { episode.season = season }
        case .itemExplicit: episode.explicit = Self.explicit(value)
        case .itemAuthor: episode.itunesAuthor = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .itemCreator:
            if draft.dcCreator == nil { draft.dcCreator = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .itemRSSAuthor: if draft.rssAuthor == nil { draft.rssAuthor = Self.personName(value) }
        case .entryAuthorName:
            if let name = nonEmpty(HTMLText.squash(value, keepNewlines: false)) { draft.atomAuthors.append(name) }
        case .channelCreator:
            if channelCreator == nil { channelCreator = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .channelRSSAuthor: if channelRSSAuthor == nil { channelRSSAuthor = Self.personName(value) }
        case .managingEditor: managingEditor = Self.personName(value)
        case .feedAuthorName:
            if let name = nonEmpty(HTMLText.squash(value, keepNewlines: false)) { feedAtomAuthors.append(name) }
        case .dcTitle: if draft.dcTitle == nil { draft.dcTitle = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .mediaTitle:
            if draft.mediaTitle == nil { draft.mediaTitle = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .channelDCTitle:
            if channelDCTitle == nil { channelDCTitle = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .channelITunesSubtitle: channel.subtitle = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .newLocation: if channel.newFeedURL == nil { channel.newFeedURL = nonEmpty(resolve(value)) }
        case .personName:
            if var person = draft.person {
                person.name = HTMLText.squash(value, keepNewlines: false)
                if !person.name.isEmpty { episode.persons.append(person) }
                draft.person = nil
            }
        }
    }

    /// Dates, durations, numbers and keywords read straight from the collected bytes, without
    /// making a String, when the bytes are ASCII (`HTMLText.decode` would return them unchanged)
    /// and the value is good. Returns false to let `finish` take the general path (non-ASCII text,
    /// a value needing a warning, an uncommon date shape), which gives the same result.
    private mutating func finishFromBytes(_ finished: Field) -> Bool {
        switch finished {
        case .pubDate, .dcDate, .atomPublished, .atomUpdated, .dcIssued, .dcCreated, .dcModified, .duration,
            .episodeNumber, .season,
            .itemExplicit, .channelExplicit, .episodeType, .showType, .locked:
            break
        default:
            return false
        }
        guard let b = ASCIIBytes.trimmedIfASCII(text.bytes) else { return false }
        do {
            switch finished {
            case .pubDate, .dcDate, .atomPublished, .atomUpdated, .dcIssued, .dcCreated, .dcModified:
                guard let rank = Self.dateRank(finished) else { return false }
                guard rank < draft.dateRank else { return true }
                guard let seconds = DateParser.fastRFC822(b) else { return false }
                episode.published = Date(timeIntervalSince1970: TimeInterval(seconds))
                draft.dateRank = rank
            case .duration:
                guard let seconds = DurationParser.parse(bytes: b) else { return false }
                episode.duration = seconds
            case .episodeNumber:
                if let number = ASCIIBytes.integer(b), number > 0 { episode.number = number }
            case .season:
                if let season = ASCIIBytes.integer(b), season > 0 { episode.season = season }
            case .itemExplicit: episode.explicit = Self.explicit(bytes: b)
            case .channelExplicit: channel.explicit = Self.explicit(bytes: b)
            case .episodeType:
                if ASCIIBytes.equalsLowercased(b, "full") {
                    episode.episodeType = "full"
                } else if ASCIIBytes.equalsLowercased(b, "trailer") {
                    episode.episodeType = "trailer"
                } else if ASCIIBytes.equalsLowercased(b, "bonus") {
                    episode.episodeType = "bonus"
                }
            case .showType:
                if ASCIIBytes.equalsLowercased(b, "episodic") {
                    channel.showType = "episodic"
                } else if ASCIIBytes.equalsLowercased(b, "serial") {
                    channel.showType = "serial"
                }
            case .locked: channel.locked = ASCIIBytes.equalsLowercased(b, "yes")
            default: return false
            }
            return true
        }
    }

    private static func explicit(bytes b: UnsafeBufferPointer<UInt8>) -> Bool? {
        if ASCIIBytes.equalsLowercased(b, "yes") || ASCIIBytes.equalsLowercased(b, "true")
            || ASCIIBytes.equalsLowercased(b, "explicit")
        {
            return true
        }
        if ASCIIBytes.equalsLowercased(b, "no") || ASCIIBytes.equalsLowercased(b, "false")
            || ASCIIBytes.equalsLowercased(b, "clean")
        {
            return false
        }
        return nil
    }

    // MARK: - Result

    /// The feed read so far: channel fallbacks applied, duplicate guids dropped (first kept).
    /// `httpContentLanguage` (the HTTP header) gives the language when the document names none.
    /// The fallbacks are applied to the stored channel in place and it is copied once, on return:
    /// every `Channel` copy retains each of its strings, which showed in the per-document cost.
    mutating func result(httpContentLanguage: String? = nil) -> (Channel, [Episode]) {
        channel.description =
            channelDescription.flatMap { Self.plain(($0, HTMLText.looksLikeHTML($0) ? .html : .text)) }
            ?? channelSummary.flatMap { Self.plain(($0, HTMLText.looksLikeHTML($0) ? .html : .text)) }
            ?? channelSubtitle.flatMap(Self.plain)
            ?? googleplayDescription.flatMap { Self.plain(($0, .text)) }
        channel.imageURL = rssImage ?? itunesImage ?? atomIcon ?? atomLogo ?? googleplayImage
        if channel.title == nil { channel.title = channelDCTitle }
        if channel.language == nil { channel.language = channelLanguage ?? rootLanguage }
        if channel.language == nil, let header = httpContentLanguage {
            let first = header.split(separator: ",").first.map { String($0).trimmedASCII } ?? ""
            if !first.isEmpty, first.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 }) { channel.language = first }
        }
        let atomAuthor = feedAtomAuthors.isEmpty ? nil : feedAtomAuthors.joined(separator: ", ")
        channel.author = channel.itunesAuthor ?? channelCreator ?? channelRSSAuthor ?? atomAuthor ?? managingEditor
        if format == .atom, let atomAuthor {
            for index in episodes.indices where episodes[index].author == nil { episodes[index].author = atomAuthor }
        }
        var seen = Set<String>(minimumCapacity: episodes.count)
        var duplicates: [Int] = []
        for (index, episode) in episodes.enumerated() {
            if let guid = episode.guid, !seen.insert(guid).inserted {
                warn("duplicate guid \"\(guid)\" at item \(index + 1): kept the first occurrence only")
                duplicates.append(index)
            }
        }
        for index in duplicates.reversed() { episodes.remove(at: index) }
        return (channel, episodes)
    }

    // MARK: - Helpers

    private mutating func warn(_ message: String) {
        if warnings.count < 100 { warnings.append(message) }
    }

    /// How an Atom text construct's content is to be read (RFC 4287 §3.1.1, §4.1.3.3; Atom 0.3
    /// `mode`): `text`/`html`/`xhtml`, any `text/*` as text, an XML media type as text, any other
    /// media type (`application/octet-stream`, `image/png`...) as base64; `mode="base64"` too.
    private static func textType(_ element: XMLStartElement) -> (TextType, base64: Bool) {
        let base64Mode = element.attribute("mode", isLowercased: "base64") == true
        guard let type = element.attribute("type")?.trimmedASCII.lowercased() else { return (.text, base64Mode) }
        switch type {
        case "html", "text/html": return (.html, base64Mode)
        case "xhtml", "application/xhtml+xml": return (.xhtml, false)
        case "text", "": return (.text, base64Mode)
        default:
            let xml = type.hasSuffix("+xml") || type.hasSuffix("/xml")
            let binary = type.contains("/") && !type.hasPrefix("text/") && !xml
            return (.text, base64Mode || binary)
        }
    }

    /// Base64 text (whitespace allowed) decoded, when the result is UTF-8 text.
    static func base64Text(_ value: String) -> String? {
        let compact = value.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact, options: .ignoreUnknownCharacters) else { return nil }
        let bytes = [UInt8](data)
        let valid = bytes.withUnsafeBufferPointer { UTF8Check.isValid($0) }
        return valid ? String(decoding: bytes, as: UTF8.self) : nil
    }

    private static func title(_ value: String, _ type: TextType) -> String {
        type == .text
            ? HTMLText.squash(value, keepNewlines: false)
            : HTMLText.squash(HTMLText.plainText(fromHTML: value), keepNewlines: false)
    }

    private static func plain(_ candidate: (String, TextType)) -> String? {
        let (value, type) = candidate
        let text = type == .text ? HTMLText.squashKeepingLines(value) : HTMLText.plainText(fromHTML: value)
        return text.isEmpty ? nil : text
    }

    private static func plain(_ value: String) -> String? {
        plain((value, HTMLText.looksLikeHTML(value) ? .html : .text))
    }

    /// The name in an RFC 822 mailbox as RSS `<author>` and `managingEditor` write it:
    /// `jo@example.com (Jo Smith)` and `Jo Smith <jo@example.com>` give "Jo Smith"; a bare address
    /// or a bare name is kept as written.
    static func personName(_ value: String) -> String? {
        let text = HTMLText.squash(value, keepNewlines: false)
        // Both mailbox shapes hold an `@`; a bare name (most `dc:creator`s) needs no search.
        guard text.utf8.contains(UInt8(ascii: "@")) else { return nonEmpty(text) }
        if let open = text.firstIndex(of: "("), text.hasSuffix(")"), text[..<open].contains("@") {
            let name = HTMLText.squash(
                String(text[text.index(after: open)..<text.index(before: text.endIndex)]), keepNewlines: false)
            if !name.isEmpty { return name }
        }
        if let open = text.firstIndex(of: "<"), text.hasSuffix(">"), text[open...].contains("@") {
            let name = HTMLText.squash(String(text[..<open]), keepNewlines: false)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if !name.isEmpty { return name }
        }
        return nonEmpty(text)
    }

    private static func explicit(_ value: String) -> Bool? {
        switch value.trimmedASCII.lowercased() {
        case "yes", "true", "explicit": return true
        case "no", "false", "clean": return false
        default: return nil
        }
    }
}

private func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
}

private func nonEmptyTrimmed(_ value: String) -> String? {
    let trimmed = value.trimmedASCII
    return trimmed.isEmpty ? nil : trimmed
}
