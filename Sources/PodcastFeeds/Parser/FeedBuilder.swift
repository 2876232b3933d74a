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
    /// The 1-based index of the item the document ended inside (its end tag never came), if any.
    var unclosedItem: Int? { state.inItem ? state.itemIndex : nil }
    /// Items (entries) started so far.
    var itemCount: Int { state.itemIndex }
    /// True once an RSS `<channel>` closed: nothing a feed reader reads can follow it.
    var channelClosed: Bool { state.channelClosed }

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
    var stopRequested = false
    let documentURL: String?
    var format: ParsedFeed.Format?
    /// The root element's name when it is not a feed; the parse was stopped.
    var rejectedRoot: String?
    var warnings: [String] = []
    var names = FeedNameTable()

    // Assigned in `init`: a default value here was built and then copied field by field.
    var channel: Channel
    var episodes: [Episode] = []

    // Where we are.
    var stack: [FeedKey] = []
    var bases: [(depth: Int, url: String)] = []
    var channelDepth = -1
    var imageDepth = 0
    var ownerDepth = 0
    var authorDepth = 0
    var redirectDepth = 0
    var categoryLevel = 0
    /// An RSS `<channel>` ended (its end tag was read).
    var channelClosed = false
    var podrollDepth = 0
    /// The depth of the open `podcast:alternateEnclosure`, 0 outside one.
    var alternateDepth = 0
    /// The attributes of the `podcast:` element whose text is being collected.
    var podcastAttributes: [String: String] = [:]
    /// The `podcast:` kinds already warned about for passing their limit.
    var warnedLimits: Set<String> = []

    // Channel values that need a choice at the end.
    var channelDescription: String?
    var channelSummary: String?
    var channelSubtitle: (String, TextType)?
    var googleplayDescription: String?
    var rssImage: String?
    var itunesImage: String?
    var atomIcon: String?
    var atomLogo: String?
    var googleplayImage: String?
    var channelCreator: Mailbox?
    var channelRSSAuthor: Mailbox?
    var managingEditor: Mailbox?
    var feedAtomAuthors: [String] = []
    var feedAtomAuthorEmail: String?
    var rootLanguage: String?
    var channelLanguage: String?
    var channelDCTitle: String?

    // The item being read.
    var inItem = false
    var episode: Episode
    var itemDepth = 0
    var itemIndex = 0
    var draft = ItemDraft()

    // The field whose text is being collected.
    var field: FeedField?
    var fieldType = TextType.text
    /// The field's text is base64 (Atom content of a non-text media type, Atom 0.3 `mode="base64"`).
    var fieldBase64 = false
    var captureDepth = 0
    var captureMarkup = false
    var markupNames: [String] = []
    var wrapperDepth = 0
    let text = TextBuffer(capacity: 4096)
    // The rule table, kept here so that each element costs one indexed load.
    let rules = FeedRules.table

    enum TextType { case text, html, xhtml }

    struct ItemDraft {
        var rssDescription: String?
        var contentEncoded: String?
        var xhtmlBody: String?
        var itunesSummary: String?
        var atomSummary: (String, TextType)?
        var atomContent: (String, TextType)?
        var mediaDescription: String?
        var dateRank = Int.max
        var guidIsPermaLink = true
        var itunesImage: String?
        var thumbnail: String?
        var person: Person?
        var dcCreator: Mailbox?
        var rssAuthor: Mailbox?
        var atomAuthors: [String] = []
        var atomAuthorEmail: String?
        var guidPermaLinkExplicit = false
        var rdfAbout: String?
        var dcTitle: String?
        var mediaTitle: String?
        /// The permalink guid resolved where it stood, when it may serve as the link.
        var guidLink: String?
    }

    init(documentURL: String?) {
        self.documentURL = documentURL
        channel = Channel()
        episode = Episode()
    }

    var currentBase: String? { bases.last?.url ?? documentURL }

    func resolve(_ reference: String) -> String {
        URLResolver.resolve(reference, against: currentBase)
    }

    func resolveMarkup(_ html: String) -> String {
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
        if depth == podrollDepth { podrollDepth = 0 }
        if depth == alternateDepth { alternateDepth = 0 }
        if depth == channelDepth && format == .rss && key.tag == .channel { channelClosed = true }
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
}
