import Testing

@testable import PodcastFeeds

/// The byte-level look-ups that replaced String ones: element names (packed words in an
/// open-addressed table) and the XML declaration's encoding.
struct NameLookupTests {
    private static func tag(_ name: String) -> FeedTag {
        Array(name.utf8 + [0]).withUnsafeBufferPointer { FeedTag.from(cName: $0.baseAddress!) }
    }

    @Test func everyKnownNameInAnyCaseAndNothingElse() {
        let known: [(String, FeedTag)] = [
            ("rss", .rss), ("channel", .channel), ("item", .item), ("pubDate", .pubdate), ("PUBDATE", .pubdate),
            ("new-feed-url", .newFeedURL), ("episodeType", .episodeType), ("managingEditor", .managingEditor),
            ("newLocation", .newLocation), ("TiTlE", .title), ("div", .div), ("id", .id),
        ]
        for (name, expected) in known {
            #expect(Self.tag(name) == expected, "\(name)")
            #expect(FeedTag.from(localName: name) == expected, "\(name)")
        }
        // Near misses, the empty name, 16 and 17 bytes, non-ASCII (the String path lower-cases it).
        for name in ["", "titl", "titles", "pubdate ", "itemx", "abcdefghijklmnop", "abcdefghijklmnopq", "tïtle"] {
            #expect(Self.tag(name) == .other, "\(name)")
        }
        #expect(Self.tag("ENCLOSURE") == .enclosure)
        // A 16-byte name packs fully (no terminator inside the two words) and still matches
        // exactly what the String look-up gives.
        #expect(Self.tag("managingeditorxx") == FeedTag.from(localName: "managingeditorxx"))
    }

    @Test func declaredEncoding() {
        func declared(_ text: String) -> String? {
            Array(text.utf8).withUnsafeBufferPointer { DocumentDecoder.declaredEncoding($0) }
        }
        #expect(declared(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss/>"#) == "ISO-8859-1")
        #expect(declared("<?xml version='1.0' encoding = 'utf-8' ?>") == "utf-8")
        #expect(declared(#"<?xml version="1.0" encodin="x"?>"#) == nil)
        #expect(declared(#"<?xml version="1.0"?><e encoding="x"/>"#) == nil)
        #expect(declared(#"<?xml version="1.0" encoding=""?>"#) == nil)
        #expect(declared(#"<?xml encoding"#) == nil)
        #expect(declared(#"<rss encoding="x">"#) == nil)
    }
}
