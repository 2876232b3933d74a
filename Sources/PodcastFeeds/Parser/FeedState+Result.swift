import Foundation

// The end of the document: the channel's fallbacks between fields, Atom authors inherited by
// entries, duplicate guids dropped; and the value helpers the other steps share.
extension FeedState {
    /// The feed read so far: channel fallbacks applied, duplicate guids dropped (first kept).
    /// `httpContentLanguage` (the HTTP header) gives the language when the document names none.
    /// The fallbacks are applied to the stored channel in place and it is copied once, on return:
    /// every `Channel` copy retains each of its strings, which showed in the per-document cost.
    mutating func result(httpContentLanguage: String? = nil) -> (Channel, [Episode]) {
        channel.description =
            channelDescription.flatMap {
                HTMLText.looksLikeHTML($0) ? Self.plain(($0, .html)) : Self.plain(($0, .text)).map(plainTextRepaired)
            }
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
        let mailbox = channelCreator ?? channelRSSAuthor
        channel.author =
            channel.itunesAuthor ?? mailbox?.displayName ?? atomAuthor ?? managingEditor?.displayName
        // The address of the source that named the author, if it gave one.
        if channel.itunesAuthor == nil {
            if let mailbox {
                channel.authorEmail = mailbox.email
            } else if atomAuthor != nil {
                channel.authorEmail = feedAtomAuthorEmail
            } else {
                channel.authorEmail = managingEditor?.email
            }
        }
        if format == .atom, let atomAuthor {
            for index in episodes.indices where episodes[index].author == nil {
                episodes[index].author = atomAuthor
                episodes[index].authorEmail = feedAtomAuthorEmail
            }
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

    /// A plain-text value of an RSS (not Atom) document with references escaped twice decoded
    /// (`MisencodedText.leftoverReferencesDecoded`): RSS text holds no literal `&#8217;`, Atom's
    /// `type="text"` may.
    func plainTextRepaired(_ value: String) -> String {
        format == .atom ? value : MisencodedText.leftoverReferencesDecoded(value)
    }

    /// A title as `title(_:_:)` gives it, with references escaped twice decoded when it is plain
    /// RSS text (`plainTextRepaired`).
    func repairedTitle(_ value: String, _ type: TextType) -> String {
        type == .text ? plainTextRepaired(Self.title(value, type)) : Self.title(value, type)
    }

    mutating func warn(_ message: String) {
        if warnings.count < 100 { warnings.append(message) }
    }

    static func title(_ value: String, _ type: TextType) -> String {
        type == .text
            ? HTMLText.squash(value, keepNewlines: false)
            : HTMLText.squash(HTMLText.plainText(fromHTML: value), keepNewlines: false)
    }

    static func plain(_ candidate: (String, TextType)) -> String? {
        let (value, type) = candidate
        let text = type == .text ? HTMLText.squashKeepingLines(value) : HTMLText.plainText(fromHTML: value)
        return text.isEmpty ? nil : text
    }

    static func plain(_ value: String) -> String? {
        plain((value, HTMLText.looksLikeHTML(value) ? .html : .text))
    }

    static func explicit(_ value: String) -> Bool? {
        switch value.trimmedASCII.lowercased() {
        case "yes", "true", "explicit": return true
        case "no", "false", "clean": return false
        default: return nil
        }
    }
}

/// `value`, or `nil` when it is `nil` or empty.
func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.isEmpty else { return nil }
    return value
}

/// `value` without ASCII white space at its ends, or `nil` when nothing is left.
func nonEmptyTrimmed(_ value: String) -> String? {
    let trimmed = value.trimmedASCII
    return trimmed.isEmpty ? nil : trimmed
}
