import CLibxml2
import Foundation

/// A feed a web page announces in its head, as browsers and podcast apps find it (the
/// "RSS autodiscovery" convention): `<link rel="alternate" type="application/rss+xml"
/// href="…" title="…">`, or `application/atom+xml`.
public struct FeedLink: Equatable, Sendable {
    /// The feed's absolute URL: `href` resolved against the page's `<base href>` if it has one,
    /// else against the page's URL (RFC 3986 §5).
    public var url: String
    /// The link's `title` attribute, whitespace collapsed; `nil` when absent or blank. Text from
    /// the page: neutralise it (`TerminalText.line`) before it reaches a terminal.
    public var title: String?
    /// The link's `type`, lower-cased: `application/rss+xml` or `application/atom+xml`.
    public var type: String

    /// A link as found on a page.
    public init(url: String, title: String?, type: String) {
        self.url = url
        self.title = title
        self.type = type
    }
}

/// Finds the feeds an HTML page links to (`FeedLink`), with libxml2's HTML parser, which
/// recovers from the broken markup real pages have, as browsers do.
///
/// A link counts when its `rel` holds the token `alternate` (tokens are space-separated and
/// case-insensitive, so `rel="alternate home"` counts) and its `type` is `application/rss+xml`
/// or `application/atom+xml` (parameters such as `; charset=utf-8` ignored), and it has a
/// non-empty `href` that resolves to an `http` or `https` URL (a page cannot point at a local
/// file, a script or another scheme). Duplicates (same resolved URL) are kept once, in document
/// order.
///
/// Bounded work for hostile pages: a page with a start tag of more than
/// `StartTagLimit.maxAttributes` attributes is not parsed (libxml2's HTML parser compares each
/// attribute of a tag with every earlier one) and gives no link, and at most `maxLinks` links
/// are returned. Pure; any thread.
public enum FeedLinkDiscovery {
    /// The most links returned from one page.
    public static let maxLinks = 100

    /// The feed links of the HTML document `bytes`, fetched from `pageURL` (after redirects).
    /// `httpContentType`'s charset, when it names one, is the document's encoding; otherwise a
    /// `<meta charset>` in its first kilobyte is, else UTF-8 (what pages use today; libxml2's
    /// own default is ISO-8859-1).
    public static func links(inHTML bytes: [UInt8], pageURL: String, httpContentType: String? = nil) -> [FeedLink] {
        guard !bytes.isEmpty, bytes.count < Int(Int32.max),
            StartTagLimit.maxAttributeCount(bytes, stoppingAbove: StartTagLimit.maxAttributes)
                <= StartTagLimit.maxAttributes
        else { return [] }
        let options = Int32(
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
                | HTML_PARSE_NONET.rawValue)
        func parse(_ encoding: String?) -> htmlDocPtr? {
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    htmlReadMemory($0, Int32(buffer.count), pageURL, encoding, options)
                }
            }
        }
        // A charset libxml2 does not know: its own detection instead.
        let encoding = encoding(bytes, httpContentType: httpContentType)
        guard let document = parse(encoding) ?? (encoding == nil ? nil : parse(nil)) else { return [] }
        defer { xmlFreeDoc(document) }
        var base = pageURL
        var candidates: [(href: String, title: String?, type: String)] = []
        // Iterative walk (a page may nest deeply); `<base>` applies wherever it appears first.
        var stack: [xmlNodePtr] = []
        var baseSeen = false
        if let root = xmlDocGetRootElement(document) { stack.append(root) }
        while let node = stack.popLast() {
            if let next = node.pointee.next { stack.append(next) }
            guard node.pointee.type == XML_ELEMENT_NODE else { continue }
            if let child = node.pointee.children { stack.append(child) }
            let name = String(cString: node.pointee.name).lowercased()
            if name == "base", !baseSeen, let href = attribute(node, "href"), !href.isEmpty {
                baseSeen = true
                base = URLResolver.resolve(href, against: pageURL)
            } else if name == "link", let link = feedLink(node) {
                candidates.append(link)
            }
        }
        var seen: Set<String> = []
        var links: [FeedLink] = []
        for candidate in candidates where links.count < maxLinks {
            let url = URLResolver.resolve(candidate.href, against: base)
            guard isWebURL(url), seen.insert(url).inserted else { continue }
            links.append(FeedLink(url: url, title: candidate.title, type: candidate.type))
        }
        return links
    }

    // Only http(s): a page from the web must not point `add` at a local file (`file:`), nor
    // offer `javascript:` or `ftp:` links as feeds (the daemon follows no other scheme from a
    // document either).
    private static func isWebURL(_ url: String) -> Bool {
        let lower = url.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    // The encoding to parse with: the HTTP charset, else nil (libxml2 reads the page's own
    // `<meta>` declaration) when the head declares one, else UTF-8.
    private static func encoding(_ bytes: [UInt8], httpContentType: String?) -> String? {
        if let type = httpContentType?.lowercased(), let range = type.range(of: "charset=") {
            let value = type[range.upperBound...].prefix { $0 != ";" && $0 != " " }
                .trimmingCharacters(in: ["\"", "'"])
            if !value.isEmpty { return value }
        }
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("charset") ? nil : "UTF-8"
    }

    /// The feed types a link may announce.
    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml"]

    // A `<link>` that announces a feed: its href, title and type.
    private static func feedLink(_ node: xmlNodePtr) -> (href: String, title: String?, type: String)? {
        guard let rel = attribute(node, "rel"),
            rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                .contains("alternate"),
            let rawType = attribute(node, "type"),
            let href = attribute(node, "href")?.trimmedASCII, !href.isEmpty
        else { return nil }
        let type = String(rawType.split(separator: ";", maxSplits: 1).first ?? "").trimmedASCII.lowercased()
        guard feedTypes.contains(type) else { return nil }
        let title = attribute(node, "title").map {
            $0.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        return (href, title?.isEmpty == false ? title : nil, type)
    }

    // The value of attribute `name` (HTML attribute names are lower-cased by the parser).
    private static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { free(value) }  // libxml2's default xmlFree (as URLResolver frees xmlBuildURI's)
        return String(cString: value)
    }
}
