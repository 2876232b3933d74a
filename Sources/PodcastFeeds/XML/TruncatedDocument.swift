/// A body that ends before its root element is closed: cut short in transit (a server's
/// `Content-Length` shorter than the document, a dropped connection behind a proxy). libxml2's
/// recover mode would still read the items before the cut, and storing those would count as the
/// feed's first sync, so the next full fetch announced every other episode. The poll fails
/// instead (retried with backoff) and nothing is stored.
///
/// A document whose root end tag is only damaged is not truncated: when every item that started
/// also ended and the body ends inside the root's end tag (`</rss` without its `>`) or after an
/// RSS `</channel>`, nothing a reader reads is missing (`isDamagedEndOnly`), and it is read
/// with a warning.
public struct TruncatedDocument: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes received.
    public var byteCount: Int
    /// The root element's name, whose end tag is missing.
    public var rootElement: String
    /// Where the body stopped, when the reader could tell (`ParsedFeed.ending`).
    public var ending: ParsedFeed.Ending?

    /// A truncation after `byteCount` bytes of a `rootElement` document, cut at `ending`.
    public init(byteCount: Int, rootElement: String, ending: ParsedFeed.Ending? = nil) {
        self.byteCount = byteCount
        self.rootElement = rootElement
        self.ending = ending
    }

    /// `"truncated: the document ends after N bytes without </rss>"`, then where: `, cut inside
    /// item 3` or `, cut after item 2 (before the channel closed)`.
    public var description: String {
        let base = "truncated: the document ends after \(byteCount) bytes without </\(rootElement)>"
        switch ending {
        case .insideItem(let item): return base + ", cut inside item \(item)"
        case .afterItems(let count, _): return base + ", cut after item \(count) (before the channel closed)"
        case nil: return base
        }
    }

    /// True when a document without its root's end tag lost nothing a reader reads: every item
    /// closed (`ending`), and `bytes` ends inside the end tag of `root` (`</rss`, `</fe`: only
    /// its tail is missing) or, for RSS, after `</channel>`.
    package static func isDamagedEndOnly(_ raw: [UInt8], root: String, ending: ParsedFeed.Ending?) -> Bool {
        guard case .afterItems(_, let channelClosed)? = ending else { return false }
        if channelClosed { return true }
        var end = raw.count
        while end > 0, [0x00, 0x20, 0x09, 0x0A, 0x0D].contains(raw[end - 1]) { end -= 1 }
        let tail = raw[..<end].filter { $0 != 0 }
        let tag = Array("</\(root)".utf8)
        // The body ends with `</` plus a prefix of the root's name (`</rs`, `</rss`).
        for length in stride(from: tag.count, through: 2, by: -1) where tail.count >= length {
            if Array(tail.suffix(length)) == Array(tag.prefix(length)) { return true }
        }
        return false
    }

    /// The root element's name when `bytes` (any ASCII-compatible encoding, or UTF-16/32: NUL
    /// bytes are skipped) does not end with its end tag, else nil. Only the prolog (XML
    /// declaration, comments, processing instructions, DOCTYPE) may precede the root, only
    /// white space and comments follow it. nil when no root start tag can be found at all.
    package static func unclosedRoot(_ raw: [UInt8]) -> String? {
        let bytes = raw.contains(0) ? raw.filter { $0 != 0 } : raw
        var i = 0
        let n = bytes.count
        func starts(_ text: String, at j: Int) -> Bool {
            let t = Array(text.utf8)
            return j + t.count <= n && Array(bytes[j..<(j + t.count)]) == t
        }
        func skip(past text: String) {
            let t = Array(text.utf8)
            while i < n {
                if starts(text, at: i) {
                    i += t.count
                    return
                }
                i += 1
            }
        }
        if starts("\u{FEFF}", at: 0) { i = 3 }
        // The prolog.
        while i < n {
            let b = bytes[i]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0xFE || b == 0xFF {
                i += 1
            } else if starts("<?", at: i) {
                skip(past: "?>")
            } else if starts("<!--", at: i) {
                skip(past: "-->")
            } else if starts("<!", at: i) {
                // DOCTYPE, with an internal subset in brackets.
                var depth = 0
                while i < n {
                    let c = bytes[i]
                    i += 1
                    if c == UInt8(ascii: "[") { depth += 1 }
                    if c == UInt8(ascii: "]") { depth -= 1 }
                    if c == UInt8(ascii: ">") && depth <= 0 { break }
                }
            } else {
                break
            }
        }
        guard i < n, bytes[i] == UInt8(ascii: "<") else { return nil }
        var j = i + 1
        while j < n, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">")].contains(bytes[j]) { j += 1 }
        guard j > i + 1 else { return nil }
        let name = Array(bytes[(i + 1)..<j])
        // The epilogue: white space and comments after the root's end tag.
        var end = n
        while true {
            while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
            if end >= 3, Array(bytes[(end - 3)..<end]) == Array("-->".utf8) {
                var k = end - 3
                while k >= 4, Array(bytes[(k - 4)..<k]) != Array("<!--".utf8) { k -= 1 }
                guard k >= 4 else { break }
                end = k - 4
            } else {
                break
            }
        }
        // `</name` then optional white space then `>`.
        guard end > 0, bytes[end - 1] == UInt8(ascii: ">") else { return String(decoding: name, as: UTF8.self) }
        var k = end - 1
        while k > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[k - 1]) { k -= 1 }
        let tag = Array("</".utf8) + name
        if k >= tag.count, Array(bytes[(k - tag.count)..<k]) == tag { return nil }
        // A root that is its own end tag: `<rss/>`.
        if end >= 2, bytes[end - 2] == UInt8(ascii: "/"), !bytes[j..<end].dropLast(2).contains(UInt8(ascii: ">")) {
            return nil
        }
        return String(decoding: name, as: UTF8.self)
    }
}
