/// The safe form of a feed's HTML (show notes) for any HTML view of ours, such as the web
/// dashboard: the usual feed-reader allow-list, in the spirit of feedparser's sanitiser.
///
/// Rules:
/// - Elements on the allow-list (text structure, lists, tables, links, images, `audio`/`video`/
///   `source`) are kept with only their allowed attributes; `script`, `style`, `iframe`, `object`,
///   `embed`, `svg`, `math`, forms' `textarea`/`select`, `template`, `noscript` and friends are
///   dropped with their content; any other element is dropped and its text kept.
/// - No event handler (`on…`), no `style`, no `id` (no clobbering the page's own ids).
/// - URL attributes (`href`, `src`, `poster`, `cite`) are kept only when, entities decoded,
///   surrounding whitespace trimmed and control characters, tabs and line breaks removed (as a
///   browser reads them; the cleaned value is what is written), their scheme is `http`, `https`
///   or `mailto`; a relative URL is dropped too (resolve first: `Episode.descriptionHTML` already
///   is). Links get `rel="nofollow noopener noreferrer"`.
/// - Output is well-formed and balanced: names lower-case, attribute values double-quoted and
///   escaped, stray `<`, `>` and bare `&` in text escaped, comments dropped, unclosed elements
///   closed at the end and stray end tags dropped, so a fragment can never close or escape the
///   element of the page it is put in.
///
/// Pure function of its input; any thread. Cost is linear in the input.
public enum HTMLSanitizer {
    /// `html` reduced to the allow-list (see the type's rules). Plain text comes back escaped
    /// (`a < b & c` becomes `a &lt; b &amp; c`).
    public static func sanitize(_ html: String) -> String {
        var copy = html
        return copy.withUTF8 { String(decoding: sanitize(bytes: $0), as: UTF8.self) }
    }

    /// Element → allowed attributes (besides the global ones).
    static let allowedElements: [String: Set<String>] = [
        "a": ["href", "rel"], "abbr": [], "acronym": [], "address": [], "b": [], "big": [], "blockquote": ["cite"],
        "br": [], "caption": [], "center": [], "cite": [], "code": [], "col": ["span"], "colgroup": ["span"],
        "dd": [], "del": ["cite", "datetime"], "dfn": [], "div": [], "dl": [], "dt": [], "em": [], "figcaption": [],
        "figure": [], "h1": [], "h2": [], "h3": [], "h4": [], "h5": [], "h6": [], "hr": [], "i": [],
        "img": ["src", "alt", "width", "height"], "ins": ["cite", "datetime"], "kbd": [], "li": ["value"],
        "mark": [], "ol": ["start", "type", "reversed"], "p": [], "pre": [], "q": ["cite"], "s": [], "samp": [],
        "small": [], "span": [], "strike": [], "strong": [], "sub": [], "sup": [], "table": ["summary"],
        "tbody": [], "td": ["colspan", "rowspan", "headers"], "tfoot": [],
        "th": ["colspan", "rowspan", "scope", "headers"],
        "thead": [], "time": ["datetime"], "tr": [], "tt": [], "u": [], "ul": [], "var": [],
        "audio": ["src", "controls"], "video": ["src", "controls", "poster", "width", "height"],
        "source": ["src", "type"], "section": [], "article": [], "header": [], "footer": [], "aside": [],
        "details": [], "summary": [],
    ]

    /// Attributes any allowed element may keep.
    static let globalAttributes: Set<String> = ["title", "lang", "dir", "class"]

    /// Elements removed together with everything inside them.
    static let droppedWithContent: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "noscript", "noembed",
        "noframes", "template", "svg", "math", "textarea", "select", "title", "head", "xmp", "plaintext", "canvas",
    ]

    /// The HTML void elements (WHATWG HTML, "void elements", plus the legacy ones browsers still
    /// parse as void): they never have content or an end tag, so dropping one must not swallow
    /// what follows it.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "param", "keygen", "frame", "basefont", "bgsound",
    ]
    static let urlAttributes: Set<String> = ["href", "src", "poster", "cite"]
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    static func sanitize(bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var tokenizer = HTMLTokenizer(bytes)
        var open: [String] = []
        var dropping: (name: String, depth: Int)? = nil
        while let token = tokenizer.next() {
            switch token {
            case .text(let range):
                if dropping == nil { appendText(bytes[range], to: &out) }
            case .skipped:
                break
            case .start(let nameRange, let attributes, let selfClosing, _):
                let name = tokenizer.lowercased(nameRange)
                if let current = dropping {
                    if name == current.name && !selfClosing { dropping = (current.name, current.depth + 1) }
                    continue
                }
                if droppedWithContent.contains(name) {
                    if !selfClosing && !voidElements.contains(name) { dropping = (name, 1) }
                    continue
                }
                guard let allowed = allowedElements[name] else { continue }
                out.append(UInt8(ascii: "<"))
                out.append(contentsOf: name.utf8)
                var seen: Set<String> = []
                for attribute in attributes {
                    let attributeName = tokenizer.lowercased(attribute.name)
                    guard allowed.contains(attributeName) || globalAttributes.contains(attributeName),
                        attributeName != "rel", seen.insert(attributeName).inserted
                    else { continue }
                    var value = attribute.value.map { decodeEntities(bytes[$0]) } ?? ""
                    if urlAttributes.contains(attributeName) {
                        guard let url = safeURL(value) else { continue }
                        value = url
                    }
                    out.append(0x20)
                    out.append(contentsOf: attributeName.utf8)
                    out.append(contentsOf: "=\"".utf8)
                    appendEscaped(value.utf8, to: &out)
                    out.append(UInt8(ascii: "\""))
                }
                if name == "a" { out.append(contentsOf: " rel=\"nofollow noopener noreferrer\"".utf8) }
                out.append(UInt8(ascii: ">"))
                if !voidElements.contains(name) && !selfClosing { open.append(name) }
                if !voidElements.contains(name) && selfClosing {
                    out.append(contentsOf: "</\(name)>".utf8)
                }
            case .end(let nameRange, _):
                let name = tokenizer.lowercased(nameRange)
                if let current = dropping {
                    if name == current.name { dropping = current.depth == 1 ? nil : (current.name, current.depth - 1) }
                    continue
                }
                // Close up to the matching open element; a stray end tag is dropped.
                guard let index = open.lastIndex(of: name) else { continue }
                while open.count > index {
                    let closing = open.removeLast()
                    out.append(contentsOf: "</\(closing)>".utf8)
                }
            }
        }
        while let closing = open.popLast() { out.append(contentsOf: "</\(closing)>".utf8) }
        return out
    }

    /// `value` as a browser reads a URL attribute (surrounding whitespace trimmed, control
    /// characters, tabs and line breaks removed) when that is an absolute `http`, `https` or
    /// `mailto` URL; `nil` otherwise (another scheme, or a relative reference).
    static func safeURL(_ value: String) -> String? {
        // Control characters out first, then the blanks they uncover trimmed: trimming first
        // left "x \0" as "x ", which a second pass trimmed to "x" (not idempotent).
        let cleaned = String(decoding: value.utf8.filter { $0 >= 0x20 && $0 != 0x7F }, as: UTF8.self).trimmedASCII
        var scheme: [UInt8] = []
        for byte in cleaned.utf8 {
            if byte == UInt8(ascii: ":") {
                return allowedSchemes.contains(String(decoding: scheme, as: UTF8.self)) ? cleaned : nil
            }
            // A space, `/`, `?`, `#` before any `:`: no scheme, a relative reference.
            guard
                HTMLTokenizer.isLetter(byte)
                    || (scheme.count > 0 && ((byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46))
            else { return nil }
            scheme.append(byte | 0x20)
            if scheme.count > 10 { return nil }
        }
        return nil
    }

    /// Text with its character references decoded (HTML named entities included).
    static func decodeEntities(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        return HTMLText.decodeEntities(String(decoding: bytes, as: UTF8.self))
    }

    /// Text as it goes between tags: a valid character reference stays, a bare `&`, `<` or `>`
    /// is escaped.
    private static func appendText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, to out: inout [UInt8]) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "&"):
                if isReference(bytes, at: index) { out.append(byte) } else { out.append(contentsOf: "&amp;".utf8) }
            case 0x00: break
            default: out.append(byte)
            }
            index += 1
        }
    }

    /// `&name;`, `&#123;` or `&#x1F;` starts at `index`.
    private static func isReference(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, at index: Int) -> Bool {
        var j = index + 1
        var count = 0
        if j < bytes.endIndex, bytes[j] == UInt8(ascii: "#") {
            j += 1
            if j < bytes.endIndex, bytes[j] | 0x20 == UInt8(ascii: "x") { j += 1 }
        }
        while j < bytes.endIndex, HTMLTokenizer.isLetter(bytes[j]) || (bytes[j] >= 48 && bytes[j] <= 57), count < 32 {
            j += 1
            count += 1
        }
        return count > 0 && j < bytes.endIndex && bytes[j] == UInt8(ascii: ";")
    }

    private static func appendEscaped(_ value: String.UTF8View, to out: inout [UInt8]) {
        for byte in value {
            switch byte {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case 0x00: break
            default: out.append(byte)
            }
        }
    }
}
