import Foundation

// The Podcasting 2.0 elements whose attributes and text both count, the alternate enclosures
// with their sources, and the podroll. Every value is hostile input: text is whitespace-collapsed,
// stripped of control characters and cut to `PodcastIndexLimits.text`; URLs are resolved and kept
// only when http(s) and short enough; counts are bounded, with one warning per kind.
extension Unicode.Scalar {
    /// Tab, line feed or carriage return: control characters that are white space.
    fileprivate var isASCIISpace: Bool { value == 0x09 || value == 0x0A || value == 0x0D }
}

extension FeedState {
    /// Reads the attributes of a `podcast:` element whose text is read too, then collects its text.
    mutating func beginPodcastText(_ field: FeedField, _ element: XMLStartElement, depth: Int) {
        var attributes: [String: String] = [:]
        func keep(_ name: StaticString) {
            if let value = element.attribute(name) { attributes["\(name)"] = value }
        }
        switch field {
        case .updateFrequency:
            keep("rrule")
            keep("complete")
            keep("dtstart")
        case .license: keep("url")
        case .location:
            keep("geo")
            keep("osm")
        case .trailer:
            keep("url")
            keep("pubdate")
            keep("length")
            keep("type")
            keep("season")
        case .podcastSeason: keep("name")
        case .podcastEpisode: keep("display")
        case .soundbite:
            keep("startTime")
            keep("duration")
        default: break
        }
        podcastAttributes = attributes
        begin(field, depth: depth)
    }

    /// Finishes a `podcast:` field begun by `beginPodcastText` (or `podcast:medium`); false for
    /// any other field.
    mutating func finishPodcastField(_ field: FeedField, _ value: String) -> Bool {
        let attributes = podcastAttributes
        podcastAttributes = [:]
        let text = Self.cappedText(value)
        switch field {
        case .medium:
            let medium = text.lowercased()
            if !medium.isEmpty, medium.utf8.count <= 32, medium.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x20 }) {
                channel.medium = medium
            }
        case .updateFrequency:
            channel.updateFrequency = UpdateFrequency(
                text: nonEmpty(text), rrule: attributes["rrule"].map(Self.cappedText).flatMap(nonEmpty),
                complete: attributes["complete"]?.trimmedASCII.lowercased() == "true",
                start: attributes["dtstart"].flatMap { DateParser.parse($0.trimmedASCII) })
        case .license:
            guard !text.isEmpty else { return true }
            let license = License(name: text, url: checkedURL(attributes["url"]))
            if inItem { episode.license = license } else { channel.license = license }
        case .location:
            guard !text.isEmpty else { return true }
            let location = Location(
                name: text, geo: attributes["geo"].map(Self.cappedText).flatMap(nonEmpty),
                osm: attributes["osm"].map(Self.cappedText).flatMap(nonEmpty))
            if inItem { episode.location = location } else { channel.location = location }
        case .trailer: addTrailer(text, attributes)
        case .podcastSeason:
            if episode.season == nil, let season = Int(value.trimmedASCII), season > 0 { episode.season = season }
            episode.seasonName = attributes["name"].map(Self.cappedText).flatMap(nonEmpty)
        case .podcastEpisode:
            if episode.number == nil, let number = Int(value.trimmedASCII), number > 0 { episode.number = number }
            episode.episodeDisplay = attributes["display"].map(Self.cappedText).flatMap(nonEmpty)
        case .soundbite: addSoundbite(text, attributes)
        default: return false
        }
        return true
    }

    private mutating func addTrailer(_ title: String, _ attributes: [String: String]) {
        guard let url = checkedURL(attributes["url"]) else {
            warn("podcast:trailer without an http(s) url ignored")
            return
        }
        guard channel.trailers.count < PodcastIndexLimits.trailers else { return warnOnce("podcast:trailer") }
        channel.trailers.append(
            Trailer(
                url: url, title: nonEmpty(title),
                published: attributes["pubdate"].flatMap { DateParser.parse($0.trimmedASCII) },
                length: attributes["length"].flatMap { Int64($0.trimmedASCII) }.flatMap { $0 > 0 ? $0 : nil },
                mimeType: attributes["type"].map(Self.cappedText).flatMap { $0.contains("/") ? $0 : nil },
                season: attributes["season"].flatMap { Int($0.trimmedASCII) }.flatMap { $0 > 0 ? $0 : nil }))
    }

    private mutating func addSoundbite(_ title: String, _ attributes: [String: String]) {
        guard let start = attributes["startTime"].flatMap({ Double($0.trimmedASCII) }), start.isFinite, start >= 0,
            let duration = attributes["duration"].flatMap({ Double($0.trimmedASCII) }), duration.isFinite,
            duration > 0
        else {
            warn("item \(itemIndex): podcast:soundbite without a valid startTime and duration ignored")
            return
        }
        guard episode.soundbites.count < PodcastIndexLimits.soundbites else { return warnOnce("podcast:soundbite") }
        episode.soundbites.append(Soundbite(start: start, duration: duration, title: nonEmpty(title)))
    }

    /// `podcast:alternateEnclosure`: its attributes now; its `podcast:source`s follow.
    mutating func beginAlternateEnclosure(_ element: XMLStartElement, depth: Int) {
        guard let type = element.attribute("type").map(Self.cappedText), type.contains("/") else {
            warn("item \(itemIndex): podcast:alternateEnclosure without a MIME type ignored")
            return
        }
        guard episode.alternateEnclosures.count < PodcastIndexLimits.alternateEnclosures else {
            return warnOnce("podcast:alternateEnclosure")
        }
        func text(_ name: StaticString) -> String? { element.attribute(name).map(Self.cappedText).flatMap(nonEmpty) }
        episode.alternateEnclosures.append(
            AlternateEnclosure(
                mimeType: type,
                length: element.attribute("length").flatMap { Int64($0.trimmedASCII) }.flatMap { $0 > 0 ? $0 : nil },
                bitrate: element.attribute("bitrate").flatMap { Double($0.trimmedASCII) }.flatMap {
                    $0.isFinite && $0 > 0 ? $0 : nil
                },
                height: element.attribute("height").flatMap { Int($0.trimmedASCII) }.flatMap { $0 > 0 ? $0 : nil },
                language: text("lang"), title: text("title"), rel: text("rel"), codecs: text("codecs"),
                isDefault: element.attribute("default")?.trimmedASCII.lowercased() == "true"))
        alternateDepth = depth
    }

    /// `podcast:source uri`: one place the open alternate enclosure can be fetched from.
    mutating func addAlternateSource(_ element: XMLStartElement) {
        guard alternateDepth > 0, !episode.alternateEnclosures.isEmpty else { return }
        guard let url = checkedURL(element.attribute("uri")) else { return }
        let last = episode.alternateEnclosures.count - 1
        guard episode.alternateEnclosures[last].sources.count < PodcastIndexLimits.sources else {
            return warnOnce("podcast:source")
        }
        episode.alternateEnclosures[last].sources.append(url)
    }

    /// `podcast:remoteItem` in the podroll.
    mutating func addRemoteItem(_ element: XMLStartElement) {
        guard let guid = element.attribute("feedGuid").map(Self.cappedText).flatMap(nonEmpty) else {
            warn("podcast:remoteItem without a feedGuid ignored")
            return
        }
        guard channel.podroll.count < PodcastIndexLimits.podroll else { return warnOnce("podcast:remoteItem") }
        channel.podroll.append(
            RemoteItem(
                feedGUID: guid, feedURL: checkedURL(element.attribute("feedUrl")),
                itemGUID: element.attribute("itemGuid").map(Self.cappedText).flatMap(nonEmpty),
                medium: element.attribute("medium").map(Self.cappedText).flatMap(nonEmpty)?.lowercased()))
    }

    /// `raw` resolved against the base in scope, when the result is an http(s) URL of at most
    /// `PodcastIndexLimits.url` bytes without white space or control characters; else `nil`.
    func checkedURL(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let url = resolve(raw)
        guard url.utf8.count <= PodcastIndexLimits.url, url.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            return nil
        }
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://") ? url : nil
    }

    /// `value` whitespace-collapsed, without control characters, cut to `PodcastIndexLimits.text`
    /// characters.
    static func cappedText(_ value: String) -> String {
        var text = value
        if hasControlCharacter(text),
            text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !$0.isASCIISpace })
        {
            text = String(
                String.UnicodeScalarView(
                    text.unicodeScalars.filter { $0.properties.generalCategory != .control || $0.isASCIISpace }))
        }
        text = HTMLText.squash(text, keepNewlines: false)
        guard text.utf8.count > PodcastIndexLimits.text, text.count > PodcastIndexLimits.text else { return text }
        return String(text.prefix(PodcastIndexLimits.text))
    }

    /// A quick look for a C0 control other than tab and line breaks, DEL, or a C1 control.
    private static func hasControlCharacter(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
                || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F)
            {
                return true
            }
            previous = byte
        }
        return false
    }

    /// One warning per document for each kind of `podcast:` element past its limit.
    mutating func warnOnce(_ kind: String) {
        guard !warnedLimits.contains(kind) else { return }
        warnedLimits.insert(kind)
        warn(
            "more \(kind) elements than the \(kind == "podcast:source" ? "per-enclosure " : "")limit: the rest ignored")
    }
}
