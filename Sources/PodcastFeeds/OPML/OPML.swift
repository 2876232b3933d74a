import Foundation

/// Reading and writing subscription lists in OPML (OPML 2.0, http://opml.org/spec2.opml; older
/// files import too). Parsing uses the same libxml2 pipeline as feeds (encoding detection,
/// HTML-entity and bare-`&` repair, no network, no entity expansion). Pure functions, any thread.
public enum OPML {
    /// The feed outlines of an OPML document, nested folders flattened, in document order. An
    /// outline counts when it has `xmlUrl` (or, failing that, `url`); its title is `title`, else
    /// `text`. Repeated URLs are all returned, so a caller can report them.
    ///
    /// - Throws: `OPMLError.emptyDocument`, `.notOPML` when the root is not `<opml>`,
    ///   `.malformed` (with what was recoverable) when the XML is broken (an outline the end of
    ///   the file cuts off is not recoverable: its URL would be cut short), and `.refused` when
    ///   its start tags are out of proportion (`StartTagLimit`).
    public static func parse(bytes: [UInt8]) throws(OPMLError) -> [OPMLOutline] {
        let decoded = DocumentDecoder(bytes: bytes, httpContentType: nil)
        var repair = EntityRepair()
        let document = repair.repair(decoded.utf8) ?? decoded.utf8
        if document.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .emptyDocument }
        let collector = OPMLOutlineCollector()
        let outcome = XMLReader.parse(document, handler: collector)
        if let refused = outcome.refused { throw .refused(refused) }
        if let root = collector.rejectedRoot { throw .notOPML(rootElement: root) }
        guard collector.sawRoot else {
            if XMLReader.hasOnlyProlog(document) { throw .emptyDocument }
            throw .malformed(details: outcome.messages, recovered: [])
        }
        var outlines = collector.outlines
        var errors = outcome.messages.filter { $0.hasPrefix("XML error") }
        // The file ends inside an attribute value of its last outline: that value (its URL,
        // perhaps) is cut short, so the outline is not offered at all.
        if let cut = collector.outlineAtEnd, endsInsideAttributeValue(document) {
            let line = outlines[cut].line.map { "line \($0): " } ?? ""
            errors.insert("\(line)the file ends inside an outline's attribute value; that outline is left out", at: 0)
            outlines.remove(at: cut)
        }
        if !outcome.wellFormed {
            throw .malformed(
                details: errors.isEmpty ? outcome.messages + decoded.warnings : errors, recovered: outlines)
        }
        return outlines
    }

    /// Whether `document` ends inside a quoted attribute value of its last tag (quotes counted
    /// from its last `<`, which a well-formed value cannot hold).
    static func endsInsideAttributeValue(_ document: [UInt8]) -> Bool {
        guard let start = document.lastIndex(of: UInt8(ascii: "<")) else { return false }
        var quote: UInt8 = 0
        for byte in document[start...] {
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
        }
        return quote != 0
    }

    /// Parses OPML held in `Data`; see `parse(bytes:)`.
    public static func parse(data: Data) throws(OPMLError) -> [OPMLOutline] {
        try parse(bytes: [UInt8](data))
    }

    /// The XML namespace of podcast-watch's OPML attributes (`pw:interval`).
    public static let namespace = "https://podcast-watch.invalid/opml/1"

    /// An OPML 2.0 document listing `feeds` as `<outline type="rss" text=… title=… xmlUrl=…
    /// pw:interval=…/>`, UTF-8, newline-terminated. A feed without a title uses its URL as `text`
    /// (the spec requires `text`) and has no `title` (`parse` reads that back as no title).
    /// `pw:interval` (seconds, namespace `namespace`) is written for feeds with their own interval,
    /// `pw:download` (`true`/`false`) and `pw:keep` for feeds with their own download settings.
    /// Characters that XML cannot carry are dropped; markup characters are escaped.
    public static func export(_ feeds: [OPMLOutline], title: String = "podcast-watch subscriptions") -> String {
        var out =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\" xmlns:pw=\"\(namespace)\">\n  <head>\n"
        out += "    <title>\(escape(title))</title>\n  </head>\n  <body>\n"
        for feed in feeds {
            let name = escape(feed.title ?? feed.url)
            out += "    <outline type=\"rss\" text=\"\(name)\""
            if feed.title != nil { out += " title=\"\(name)\"" }
            out += " xmlUrl=\"\(escape(feed.url))\""
            if let interval = feed.interval { out += " pw:interval=\"\(interval)\"" }
            if let download = feed.download { out += " pw:download=\"\(download)\"" }
            if let keep = feed.keep { out += " pw:keep=\"\(keep)\"" }
            out += "/>\n"
        }
        out += "  </body>\n</opml>\n"
        return out
    }

    static func escape(_ text: String) -> String {
        var out = String()
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default:
                // XML 1.0 Char: no other C0 controls, no U+FFFE/U+FFFF.
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
