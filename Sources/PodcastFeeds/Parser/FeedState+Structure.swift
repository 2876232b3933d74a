// Where an element stands: the root, the channel and its sub-contexts, the items. Structure is
// code (the root decides the format, `<item>` opens an item, `<image>` and `itunes:category`
// nest); which element fills which field is the rule table (`FeedRules`), applied by `apply`.
extension FeedState {
    mutating func startRoot(_ key: FeedKey, _ element: XMLStartElement) {
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

    mutating func startInChannel(_ key: FeedKey, _ element: XMLStartElement, depth: Int) {
        if startsStructure(key, element, depth: depth) { return }
        // Inside a sub-context only its direct children count; nothing else below it does.
        if let (context, contextDepth) = channelSubcontext {
            if depth == contextDepth + 1 { apply(rules.rule(context, key), element, depth: depth, inItem: false) }
            return
        }
        // `<redirect>` directly under `<rss>` (outside the channel) counts too.
        if key.namespace == .none && key.tag == .redirect && depth == 2 && format == .rss {
            redirectDepth = depth
            return
        }
        if key.namespace == .itunes && key.tag == .category {
            startCategory(element, depth: depth)
            return
        }
        // Channel fields are direct children of <channel> (<feed> in Atom); this keeps the titles
        // of <image>, <textinput> and RSS 1.0's root-level siblings out.
        guard depth == channelDepth + 1, stack[depth - 2].tag == (format == .atom ? .feed : .channel) else { return }
        apply(rules.rule(.channel, key), element, depth: depth, inItem: false)
    }

    // An item, the RSS channel, or the channel's <image> (RSS 1.0: a sibling of the channel).
    private mutating func startsStructure(_ key: FeedKey, _ element: XMLStartElement, depth: Int) -> Bool {
        let ns = key.namespace
        if format == .atom {
            if ns == .atom && key.tag == .entry {
                beginItem(depth: depth)
                return true
            }
        } else {
            if ns == .none && key.tag == .item {
                beginItem(depth: depth)
                // RSS 1.0: the item's `rdf:about` is its URL, the link when there is no <link>.
                if format == .rdf, let about = element.attribute("about") { draft.rdfAbout = nonEmpty(resolve(about)) }
                return true
            }
            if ns == .none && key.tag == .channel && depth == 2 {
                channelDepth = 2
                channelLanguage = element.xmlLang.flatMap(nonEmptyTrimmed)
                return true
            }
        }
        if ns == .none && key.tag == .image && (depth == channelDepth + 1 || (format == .rdf && depth == 2)) {
            imageDepth = depth
            return true
        }
        return false
    }

    // The channel's open sub-context and its element's depth, if any.
    private var channelSubcontext: (FeedContext, Int)? {
        if imageDepth > 0 { return (.channelImage, imageDepth) }
        if ownerDepth > 0 { return (.owner, ownerDepth) }
        if authorDepth > 0 { return (.feedAuthor, authorDepth) }
        if redirectDepth > 0 { return (.redirect, redirectDepth) }
        if podrollDepth > 0 { return (.podroll, podrollDepth) }
        return nil
    }

    // `itunes:category text=...`, nested: a top-level one starts a path, each nested one adds to
    // it (at any depth).
    private mutating func startCategory(_ element: XMLStartElement, depth: Int) {
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
    }

    mutating func beginItem(depth: Int) {
        inItem = true
        // `episode` is already a fresh `Episode()`: the initial value, or what `finishItem` swapped
        // in (only `finishItem` leaves an item). Assigning another would destroy and rebuild it.
        itemDepth = depth
        itemIndex += 1
        draft = ItemDraft()
    }

    mutating func startInItem(_ key: FeedKey, _ element: XMLStartElement, depth: Int) {
        // Media RSS and chapters count anywhere inside the item (`media:group`, `psc:chapters`).
        let anywhere = rules.rule(.inItem, key)
        if anywhere != .ignore {
            apply(anywhere, element, depth: depth, inItem: true)
            return
        }
        if authorDepth > 0 {
            if depth == authorDepth + 1 { apply(rules.rule(.entryAuthor, key), element, depth: depth, inItem: true) }
            return
        }
        guard depth == itemDepth + 1 else { return }
        apply(rules.rule(.item, key), element, depth: depth, inItem: true)
    }

    // What a rule says to do with an element that starts.
    private mutating func apply(_ rule: FeedRule, _ element: XMLStartElement, depth: Int, inItem: Bool) {
        switch rule {
        case .ignore: break
        case .text(let field): begin(field, depth: depth)
        case .markup(let field): begin(field, depth: depth, markup: true)
        case .textConstruct(let field): beginText(field, depth: depth, element)
        case .enter(let context): enter(context, depth: depth)
        case .attributes(let action): read(action, element, depth: depth, inItem: inItem)
        }
    }

    private mutating func enter(_ context: FeedContext, depth: Int) {
        switch context {
        case .owner: ownerDepth = depth
        case .feedAuthor, .entryAuthor: authorDepth = depth
        case .redirect: redirectDepth = depth
        case .podroll: podrollDepth = depth
        case .channelImage: imageDepth = depth
        case .channel, .item, .inItem: break
        }
    }
}
