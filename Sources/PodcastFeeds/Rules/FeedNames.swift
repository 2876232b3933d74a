import Foundation

/// The vocabularies the feed parser understands. `none` is plain RSS: no namespace, and every
/// namespace an RSS or early Atom document was once told to declare as its default (RSS 1.0's and
/// 0.90's, UserLand's and Harvard's RSS 2.0 ones, the `rss091` module, the Echo/Pie drafts that
/// became Atom), as feedparser reads them. They name the same elements; in an Atom document
/// `none` reads as Atom.
enum FeedNamespace: UInt8, CaseIterable {
    case none, atom, itunes, podcast, media, content, dc, psc, googleplay, rdf, xhtml, other

    /// Namespace URIs, compared case-insensitively and without a trailing `/` or `#`.
    private static let byURI: [String: FeedNamespace] = [
        "http://purl.org/rss/1.0": .none,
        "http://my.netscape.com/rdf/simple/0.9": .none,
        "http://backend.userland.com/rss2": .none,
        "http://backend.userland.com/rss": .none,
        "http://blogs.law.harvard.edu/tech/rss": .none,
        "http://purl.org/rss/1.0/modules/rss091": .none,
        "http://example.com/newformat": .none,
        "http://example.com/necho": .none,
        "http://purl.org/echo": .none,
        "uri/of/echo/namespace": .none,
        "http://purl.org/pie": .none,
        "http://www.w3.org/2005/atom": .atom,
        "http://purl.org/atom/ns": .atom,
        "http://www.itunes.com/dtds/podcast-1.0.dtd": .itunes,
        "http://example.com/dtds/podcast-1.0.dtd": .itunes,
        "https://podcastindex.org/namespace/1.0": .podcast,
        "https://github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md": .podcast,
        "http://search.yahoo.com/mrss": .media,
        "http://purl.org/rss/1.0/modules/content": .content,
        "http://purl.org/dc/elements/1.1": .dc,
        "http://purl.org/dc/terms": .dc,
        "http://podlove.org/simple-chapters": .psc,
        "http://www.google.com/schemas/play-podcasts/1.0": .googleplay,
        "http://www.w3.org/1999/02/22-rdf-syntax-ns": .rdf,
        "http://www.w3.org/1999/xhtml": .xhtml,
    ]

    /// Well-known prefixes, used when a prefix is not declared (libxml2 then reports no URI).
    private static let byPrefix: [String: FeedNamespace] = [
        "atom": .atom, "itunes": .itunes, "podcast": .podcast, "media": .media, "content": .content,
        "dc": .dc, "dcterms": .dc, "psc": .psc, "googleplay": .googleplay, "rdf": .rdf, "xhtml": .xhtml,
    ]

    static func from(uri: String) -> FeedNamespace {
        var key = uri.trimmedASCII.lowercased()
        while key.hasSuffix("/") || key.hasSuffix("#") { key.removeLast() }
        return byURI[key] ?? .other
    }

    static func from(undeclaredPrefix prefix: String) -> FeedNamespace {
        byPrefix[prefix.lowercased()] ?? .other
    }
}

/// Element local names the parser acts on, matched case-insensitively (iTunes accepts `<TiTlE>`).
enum FeedTag: UInt8, CaseIterable {
    case other
    case rss, channel, item, feed, entry, rdf
    case title, link, description, guid, pubdate, date, enclosure, image, url, language, generator
    case author, summary, subtitle, tagline, content, encoded, duration, explicit, owner, name, email
    case category, keywords, type, newFeedURL, locked, funding, group, thumbnail, episode, season
    case episodeType, chapters, chapter, transcript, person, published, updated, issued, modified
    case created, id, icon, logo, source, textinput, creator, div, managingEditor, redirect, newLocation
    case body, fullitem
    case alternateEnclosure, podroll, remoteItem, soundbite, trailer, license, location, updateFrequency, medium

    private static let byName: [String: FeedTag] = [
        "rss": .rss, "channel": .channel, "item": .item, "feed": .feed, "entry": .entry, "rdf": .rdf,
        "title": .title, "link": .link, "description": .description, "guid": .guid, "pubdate": .pubdate,
        "date": .date, "enclosure": .enclosure, "image": .image, "url": .url, "language": .language,
        "generator": .generator, "author": .author, "summary": .summary, "subtitle": .subtitle,
        "tagline": .tagline, "content": .content, "encoded": .encoded, "duration": .duration,
        "explicit": .explicit, "owner": .owner, "name": .name, "email": .email, "category": .category,
        "keywords": .keywords, "type": .type, "new-feed-url": .newFeedURL, "locked": .locked,
        "funding": .funding, "group": .group, "thumbnail": .thumbnail, "episode": .episode,
        "season": .season, "episodetype": .episodeType, "chapters": .chapters, "chapter": .chapter,
        "transcript": .transcript, "person": .person, "published": .published, "updated": .updated,
        "issued": .issued, "modified": .modified, "created": .created, "id": .id, "icon": .icon,
        "logo": .logo, "source": .source, "textinput": .textinput, "creator": .creator, "div": .div,
        "managingeditor": .managingEditor, "redirect": .redirect, "newlocation": .newLocation,
        "body": .body, "fullitem": .fullitem, "alternateenclosure": .alternateEnclosure, "podroll": .podroll,
        "remoteitem": .remoteItem, "soundbite": .soundbite, "trailer": .trailer, "license": .license,
        "location": .location, "updatefrequency": .updateFrequency, "medium": .medium,
    ]

    static func from(localName: String) -> FeedTag {
        byName[localName.lowercased()] ?? .other
    }

    // The known names, ASCII-lowercased and packed into two words, in an open-addressed table
    // hashed by one multiply: a name libxml2 reports is looked up without building a String or
    // running SipHash (every distinct name of every document is a lookup).
    private static let packedTable = PackedNameTable(byName)

    /// The tag for a NUL-terminated UTF-8 local name, as `from(localName:)` matches it (ASCII
    /// case-insensitively; non-ASCII names take the String path).
    static func from(cName: UnsafePointer<UInt8>) -> FeedTag {
        if let packed = PackedName(cName) { return packedTable.tag(for: packed) }
        var length = 0
        while length < 64, cName[length] != 0 {
            if cName[length] >= 0x80 { return from(localName: String(cString: cName)) }
            length += 1
        }
        // Longer than 16 bytes (`alternateEnclosure`): the String path; longer than any known name: none.
        return length <= 24 ? from(localName: String(cString: cName)) : .other
    }
}

/// `FeedTag.byName` keyed by `PackedName`: 256 slots (a quarter full), linear probing, `.other`
/// marks an empty slot. Built once.
private struct PackedNameTable {
    private struct Slot {
        var name = PackedName()
        var tag = FeedTag.other
    }
    private var slots = [Slot](repeating: Slot(), count: 256)

    init(_ byName: [String: FeedTag]) {
        for (name, tag) in byName {
            let bytes = Array(name.utf8) + [0]
            guard let packed = bytes.withUnsafeBufferPointer({ PackedName($0.baseAddress!) }) else { continue }
            var index = Self.slot(packed)
            while slots[index].tag != .other { index = (index + 1) & 255 }
            slots[index] = Slot(name: packed, tag: tag)
        }
    }

    @inline(__always)
    private static func slot(_ name: PackedName) -> Int {
        let mixed = (name.low &* 0x9E37_79B9_7F4A_7C15) ^ (name.high &* 0xC2B2_AE3D_27D4_EB4F)
        return Int(truncatingIfNeeded: mixed >> 56)
    }

    func tag(for name: PackedName) -> FeedTag {
        slots.withUnsafeBufferPointer { slots in
            var index = Self.slot(name)
            while true {
                let slot = slots[index]
                if slot.tag == .other { return .other }
                if slot.name == name { return slot.tag }
                index = (index + 1) & 255
            }
        }
    }
}

/// Up to 16 ASCII bytes of a name, lowercased, in two words; `nil` for a longer or non-ASCII name.
private struct PackedName: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    init() {}

    init?(_ name: UnsafePointer<UInt8>) {
        switch Self.word(name, &low) {
        case nil: return nil
        case false: return
        case true: break
        }
        switch Self.word(name + 8, &high) {
        case nil: return nil
        case false: return
        case true: if name[16] != 0 { return nil }  // 17 bytes or more
        }
    }

    /// Packs up to eight bytes into `word`: `false` when the name ended (NUL) within them, `true`
    /// when all eight were name bytes, `nil` for a byte that is not ASCII.
    @inline(__always)
    private static func word(_ bytes: UnsafePointer<UInt8>, _ word: inout UInt64) -> Bool? {
        var packed: UInt64 = 0
        for index in 0..<8 {
            var byte = bytes[index]
            if byte == 0 {
                word = packed
                return false
            }
            guard byte < 0x80 else { return nil }
            if byte &- 65 < 26 { byte |= 0x20 }
            packed |= UInt64(byte) &<< UInt64(8 &* index)
        }
        word = packed
        return true
    }
}

/// An element identity: namespace and tag, as compared in the builder.
struct FeedKey: Equatable {
    var namespace: FeedNamespace
    var tag: FeedTag
}

/// Interns libxml2's dictionary pointers to `FeedKey`s, so each distinct name is decoded once per
/// parse and every later element costs two pointer-keyed cache hits. The caches are direct-mapped
/// (a collision only costs a recomputation) and share one allocation, made per document.
struct FeedNameTable {
    private struct Entry {
        var key: UInt = 0
        var value: UInt8 = 0
    }
    // Sized for the distinct names of a large feed (tens of tags, a handful of namespaces): tags
    // in the first 128 slots, then 16 for namespace URIs, then 16 for undeclared prefixes.
    private static let tagSlots = 128
    private static let namespaceBase = 128
    private static let prefixBase = 144
    private var entries = [Entry](repeating: Entry(), count: 160)
    /// Undeclared prefixes seen, for one warning each.
    private(set) var undeclaredPrefixes: [String] = []

    @inline(__always)
    private mutating func cached(
        _ pointer: UnsafePointer<UInt8>, base: Int, mask: Int, compute: (inout FeedNameTable) -> UInt8
    ) -> UInt8 {
        let bits = UInt(bitPattern: pointer)
        let index = base + Int(truncatingIfNeeded: (bits >> 3) ^ (bits >> 11)) & mask
        let entry = entries[index]
        if entry.key == bits { return entry.value }
        let value = compute(&self)
        entries[index] = Entry(key: bits, value: value)
        return value
    }

    mutating func key(for element: XMLStartElement) -> FeedKey {
        let localname = element.localname
        let tagValue = cached(localname, base: 0, mask: Self.tagSlots - 1) { _ in
            FeedTag.from(cName: localname).rawValue
        }
        let namespace: FeedNamespace
        if let uri = element.uri {
            let prefix = element.prefix
            let value = cached(uri, base: Self.namespaceBase, mask: 15) { _ in
                // A URI we do not know under a well-known prefix (`xmlns:content="…/content"` with a
                // typo) means what the prefix usually means, as feedparser reads it.
                let byURI = FeedNamespace.from(uri: String(cString: uri))
                guard byURI == .other, let prefix else { return byURI.rawValue }
                return FeedNamespace.from(undeclaredPrefix: String(cString: prefix)).rawValue
            }
            namespace = FeedNamespace(rawValue: value) ?? .other
        } else if let prefix = element.prefix {
            let value = cached(prefix, base: Self.prefixBase, mask: 15) { table in
                let name = String(cString: prefix)
                if !table.undeclaredPrefixes.contains(name) { table.undeclaredPrefixes.append(name) }
                return FeedNamespace.from(undeclaredPrefix: name).rawValue
            }
            namespace = FeedNamespace(rawValue: value) ?? .other
        } else {
            namespace = .none
        }
        return FeedKey(namespace: namespace, tag: FeedTag(rawValue: tagValue) ?? .other)
    }
}
