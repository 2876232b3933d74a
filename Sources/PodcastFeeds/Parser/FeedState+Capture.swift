import Foundation

// Collecting a field's text: plain text as bytes, decoded once at its end tag; inline markup of
// HTML bodies re-serialised; Atom text constructs by their `type` (RFC 4287 §3.1).
extension FeedState {
    mutating func begin(_ newFeedField: FeedField, depth: Int, markup: Bool = false, type: TextType = .text) {
        field = newFeedField
        fieldType = type
        captureDepth = depth
        captureMarkup = markup
        // markupNames is usually empty already; removeAll would still go through replaceSubrange.
        if !markupNames.isEmpty { markupNames.removeAll(keepingCapacity: true) }
        wrapperDepth = 0
        fieldBase64 = false
        text.removeAll()
        if newFeedField == .xhtmlBody {
            // Inline XHTML: text escaped, every child kept (no Atom `div` wrapper to drop).
            fieldType = .xhtml
            wrapperDepth = -1
        }
    }

    /// Starts an Atom text construct (or an RSS title): its type decides how markup inside is
    /// kept. XHTML is re-serialised (so escaped text stays text and `<script>` can be dropped when
    /// rendering plain text); base64 content is decoded at the end.
    mutating func beginText(_ newFeedField: FeedField, depth: Int, _ element: XMLStartElement) {
        let (type, base64) = Self.textType(element)
        begin(
            newFeedField, depth: depth,
            markup: type == .xhtml || newFeedField == .atomSummary || newFeedField == .atomContent
                || newFeedField == .channelSubtitle, type: type)
        fieldBase64 = base64
    }

    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    /// Re-serialises a child element of an HTML-bearing field (inline markup, Atom XHTML).
    mutating func startMarkup(_ element: XMLStartElement, key: FeedKey, depth: Int) {
        if fieldType == .xhtml && depth == captureDepth + 1 && key.tag == .div && wrapperDepth == 0
            && text.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
        {
            wrapperDepth = depth  // RFC 4287 §3.1.1.3: the xhtml:div is not part of the content
            text.removeAll()
            return
        }
        let name = String(cString: element.localname)
        text.append(UInt8(ascii: "<"))
        text.append(contentsOf: name.utf8)
        for (attribute, value) in element.allAttributes where !attribute.hasPrefix("xmlns") {
            text.append(contentsOf: " \(attribute)=\"".utf8)
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "&"): text.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "\""): text.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "<"): text.append(contentsOf: "&lt;".utf8)
                default: text.append(byte)
                }
            }
            text.append(UInt8(ascii: "\""))
        }
        if Self.voidElements.contains(name.lowercased()) {
            text.append(contentsOf: "/>".utf8)
            markupNames.append("")
        } else {
            text.append(UInt8(ascii: ">"))
            markupNames.append(name)
        }
    }

    mutating func endMarkup(depth: Int) {
        if depth == wrapperDepth {
            wrapperDepth = 0
            return
        }
        guard let name = markupNames.popLast(), !name.isEmpty else { return }
        text.append(contentsOf: "</".utf8)
        text.append(contentsOf: name.utf8)
        text.append(UInt8(ascii: ">"))
    }

    mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        for byte in buffer {
            switch byte {
            case UInt8(ascii: "&"): text.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): text.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): text.append(contentsOf: "&gt;".utf8)
            default: text.append(byte)
            }
        }
    }

    /// How an Atom text construct's content is to be read (RFC 4287 §3.1.1, §4.1.3.3; Atom 0.3
    /// `mode`): `text`/`html`/`xhtml`, any `text/*` as text, an XML media type as text, any other
    /// media type (`application/octet-stream`, `image/png`...) as base64; `mode="base64"` too.
    static func textType(_ element: XMLStartElement) -> (TextType, base64: Bool) {
        let base64Mode = element.attribute("mode", isLowercased: "base64") == true
        guard let type = element.attribute("type")?.trimmedASCII.lowercased() else { return (.text, base64Mode) }
        switch type {
        case "html", "text/html": return (.html, base64Mode)
        case "xhtml", "application/xhtml+xml": return (.xhtml, false)
        case "text", "": return (.text, base64Mode)
        default:
            let xml = type.hasSuffix("+xml") || type.hasSuffix("/xml")
            let binary = type.contains("/") && !type.hasPrefix("text/") && !xml
            return (.text, base64Mode || binary)
        }
    }

    /// Base64 text (whitespace allowed) decoded, when the result is UTF-8 text.
    static func base64Text(_ value: String) -> String? {
        let compact = value.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact, options: .ignoreUnknownCharacters) else { return nil }
        let bytes = [UInt8](data)
        let valid = bytes.withUnsafeBufferPointer { UTF8Check.isValid($0) }
        return valid ? String(decoding: bytes, as: UTF8.self) : nil
    }
}
