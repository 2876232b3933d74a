import Foundation

// What a field's text becomes when its element ends: trimmed, squashed, resolved against the base
// in scope, parsed as a date, duration or number, with a warning for a value that is not one.
extension FeedState {
    mutating func finish(_ finished: FeedField) {
        if finishFromBytes(finished) { return }
        // Ids and URLs are not text to repair: a guid must stay byte for byte (it keys the episode).
        let isIdentifier =
            finished == .guid || finished == .atomID || finished == .podcastGUID || finished == .itemLink
            || finished == .channelLink || finished == .imageURL || finished == .newFeedURL
        var value = HTMLText.decode(text.bytes, isIdentifier: isIdentifier)
        if fieldBase64 {
            if let decoded = Self.base64Text(value) {
                value = decoded
            } else {
                warn("item \(itemIndex): base64 content that is not UTF-8 text dropped")
                value = ""
            }
        }
        if !finishChannelField(finished, value), !finishItemField(finished, value) {
            _ = finishPodcastField(finished, value)
        }
    }

    // A channel field (or one of the channel's sub-contexts); false for an item field.
    private mutating func finishChannelField(_ field: FeedField, _ value: String) -> Bool {
        switch field {
        case .channelTitle: channel.title = nonEmpty(repairedTitle(value, fieldType))
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
        case .podcastGUID: channel.podcastGUID = nonEmpty(Self.cappedText(value))
        case .locked: channel.locked = value.trimmedASCII.lowercased() == "yes"
        case .imageURL: rssImage = nonEmpty(resolve(value))
        case .atomIcon: atomIcon = nonEmpty(resolve(value))
        case .atomLogo: atomLogo = nonEmpty(resolve(value))
        case .channelCreator:
            if channelCreator == nil { channelCreator = Mailbox(value) }
        case .channelRSSAuthor: if channelRSSAuthor == nil { channelRSSAuthor = Mailbox(value) }
        case .managingEditor: managingEditor = Mailbox(value)
        case .feedAuthorEmail:
            if feedAtomAuthorEmail == nil { feedAtomAuthorEmail = Mailbox(value)?.email }
        case .feedAuthorName:
            if let name = nonEmpty(HTMLText.squash(value, keepNewlines: false)) { feedAtomAuthors.append(name) }
        case .channelDCTitle:
            if channelDCTitle == nil { channelDCTitle = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .channelITunesSubtitle: channel.subtitle = nonEmpty(HTMLText.squash(value, keepNewlines: false))
        case .newLocation: if channel.newFeedURL == nil { channel.newFeedURL = nonEmpty(resolve(value)) }
        default: return false
        }
        return true
    }

    // An item field; false for a channel field.
    private mutating func finishItemField(_ field: FeedField, _ value: String) -> Bool {
        switch field {
        case .itemTitle: episode.title = nonEmpty(repairedTitle(value, fieldType))
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
        case .xhtmlBody: draft.xhtmlBody = resolveMarkup(value)
        case .itemSummary: draft.itunesSummary = resolveMarkup(value)
        case .atomSummary: draft.atomSummary = (fieldType == .text ? value : resolveMarkup(value), fieldType)
        case .atomContent: draft.atomContent = (fieldType == .text ? value : resolveMarkup(value), fieldType)
        case .mediaDescription: if draft.mediaDescription == nil { draft.mediaDescription = value }
        case .pubDate, .dcDate, .atomPublished, .atomUpdated, .dcIssued, .dcCreated, .dcModified:
            finishDate(field, value)
        case .duration: finishDuration(value)
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
            if draft.dcCreator == nil { draft.dcCreator = Mailbox(value) }
        case .itemRSSAuthor: if draft.rssAuthor == nil { draft.rssAuthor = Mailbox(value) }
        case .entryAuthorEmail:
            if draft.atomAuthorEmail == nil { draft.atomAuthorEmail = Mailbox(value)?.email }
        case .entryAuthorName:
            if let name = nonEmpty(HTMLText.squash(value, keepNewlines: false)) { draft.atomAuthors.append(name) }
        case .dcTitle: if draft.dcTitle == nil { draft.dcTitle = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .mediaTitle:
            if draft.mediaTitle == nil { draft.mediaTitle = nonEmpty(HTMLText.squash(value, keepNewlines: false)) }
        case .personName:
            if var person = draft.person {
                person.name = HTMLText.squash(value, keepNewlines: false)
                if !person.name.isEmpty {
                    if episode.persons.count < PodcastIndexLimits.persons {
                        person.name = Self.cappedText(person.name)
                        episode.persons.append(person)
                    } else {
                        warnOnce("podcast:person")
                    }
                }
                draft.person = nil
            }
        default: return false
        }
        return true
    }

    // A date field: kept when it outranks the item's date so far (`FeedField.dateRank`).
    private mutating func finishDate(_ field: FeedField, _ value: String) {
        guard let rank = field.dateRank, rank < draft.dateRank else { return }
        let trimmed = value.trimmedASCII
        if let date = DateParser.parse(trimmed) {
            episode.published = date
            draft.dateRank = rank
        } else if !trimmed.isEmpty {
            warn("item \(itemIndex): unparseable date \"\(trimmed)\"")
        }
    }

    private mutating func finishDuration(_ value: String) {
        let trimmed = value.trimmedASCII
        if let seconds = DurationParser.parse(trimmed) {
            episode.duration = seconds
        } else if !trimmed.isEmpty {
            warn("item \(itemIndex): unparseable itunes:duration \"\(trimmed)\"")
        }
    }

    /// Dates, durations, numbers and keywords read straight from the collected bytes, without
    /// making a String, when the bytes are ASCII (`HTMLText.decode` would return them unchanged)
    /// and the value is good. Returns false to let `finish` take the general path (non-ASCII text,
    /// a value needing a warning, an uncommon date shape), which gives the same result.
    mutating func finishFromBytes(_ finished: FeedField) -> Bool {
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
                guard let rank = finished.dateRank else { return false }
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

    static func explicit(bytes b: UnsafeBufferPointer<UInt8>) -> Bool? {
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
}
