import Foundation

// Elements whose attributes carry their value, and the item's end: enclosures, links by `rel`,
// images, chapters, transcripts, persons; then an item's fallbacks between its fields.
extension FeedState {
    // An element whose attributes carry its value (`FeedAction`).
    mutating func read(_ action: FeedAction, _ element: XMLStartElement, depth: Int, inItem: Bool) {
        switch action {
        case .atomLink: atomLink(element, inItem: inItem)
        case .itunesImage:
            // `url=` is a common typo of `href=`; read it when `href` is missing.
            guard let href = element.attribute("href") ?? element.attribute("url") else { return }
            if inItem {
                if draft.itunesImage == nil { draft.itunesImage = nonEmpty(resolve(href)) }
            } else if itunesImage == nil {
                itunesImage = nonEmpty(resolve(href))
            }
        case .googlePlayImage:
            if googleplayImage == nil, let href = element.attribute("href") {
                googleplayImage = nonEmpty(resolve(href))
            }
        case .funding:
            if channel.fundingURL == nil { channel.fundingURL = checkedURL(element.attribute("url")) }
        case .enclosure:
            addEnclosure(
                url: element.attribute("url"), length: element.attribute("length"), type: element.attribute("type"))
        case .mediaContent:
            addEnclosure(
                url: element.attribute("url"), length: element.attribute("fileSize"), type: element.attribute("type"))
        case .mediaThumbnail:
            if draft.thumbnail == nil, let url = element.attribute("url") { draft.thumbnail = nonEmpty(resolve(url)) }
        case .chapter: addChapter(element)
        case .chaptersURL:
            if episode.chaptersURL == nil { episode.chaptersURL = checkedURL(element.attribute("url")) }
        case .transcript: addTranscript(element)
        case .person: beginPerson(element, depth: depth)
        case .guid:
            let permaLink = element.attribute("isPermaLink", isLowercased: "true")
            draft.guidIsPermaLink = permaLink ?? true
            draft.guidPermaLinkExplicit = permaLink == true
            begin(.guid, depth: depth)
        case .atomContent:
            if element.attribute("src") == nil { beginText(.atomContent, depth: depth, element) }
        case .alternateEnclosure: beginAlternateEnclosure(element, depth: depth)
        case .alternateSource: addAlternateSource(element)
        case .remoteItem: addRemoteItem(element)
        case .podcastText(let field): beginPodcastText(field, element, depth: depth)
        }
    }

    private mutating func addTranscript(_ element: XMLStartElement) {
        guard let url = checkedURL(element.attribute("url")) else {
            warn("item \(itemIndex): podcast:transcript without an http(s) url ignored")
            return
        }
        guard episode.transcripts.count < PodcastIndexLimits.transcripts else { return warnOnce("podcast:transcript") }
        func text(_ name: StaticString) -> String? { element.attribute(name).map(Self.cappedText).flatMap(nonEmpty) }
        episode.transcripts.append(
            Transcript(url: url, mimeType: text("type"), language: text("language"), rel: text("rel")))
    }

    // `podcast:person`: its attributes now, its name (the text) when it ends.
    private mutating func beginPerson(_ element: XMLStartElement, depth: Int) {
        draft.person = Person(
            name: "", role: nonEmpty(element.attribute("role")?.lowercased()) ?? "host",
            group: nonEmpty(element.attribute("group")?.lowercased()) ?? "cast",
            href: checkedURL(element.attribute("href")), img: checkedURL(element.attribute("img")))
        begin(.personName, depth: depth)
    }

    mutating func atomLink(_ element: XMLStartElement, inItem: Bool) {
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

    mutating func addEnclosure(url raw: String?, length: String?, type: String?) {
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

    mutating func addChapter(_ element: XMLStartElement) {
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

    mutating func finishItem() {
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
            ?? draft.xhtmlBody.flatMap(nonEmptyTrimmed)
            ?? (rssIsHTML ? rss : nil)
            ?? html(draft.atomContent) ?? html(draft.atomSummary)
            ?? summary.flatMap { HTMLText.looksLikeHTML($0) ? $0 : nil }
        episode.description =
            (rssIsHTML ? nil : rss.map { plainTextRepaired(HTMLText.squashKeepingLines($0)) })
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
        let mailbox = episode.itunesAuthor == nil ? draft.dcCreator ?? draft.rssAuthor : nil
        episode.author =
            episode.itunesAuthor ?? mailbox?.displayName
            ?? (draft.atomAuthors.isEmpty ? nil : draft.atomAuthors.joined(separator: ", "))
        episode.authorEmail = mailbox?.email ?? (episode.author == nil ? nil : draft.atomAuthorEmail)
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
}
