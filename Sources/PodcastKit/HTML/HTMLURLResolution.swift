#if canImport(Glibc)
import Glibc
#endif

/// Resolves the relative URLs inside an HTML fragment (show notes) against the base in scope
/// where the fragment was found (`xml:base`, else the document URL), as feedparser does for
/// content: the values of `href`, `src`, `poster`, `cite`, `longdesc` and `background`. Everything
/// else is left byte for byte, so the fragment stays the feed's own HTML.
enum HTMLURLResolution {
    static let urlAttributes: Set<String> = ["href", "src", "poster", "cite", "longdesc", "background"]

    /// `html` with every relative URL attribute resolved against `base`; `html` itself (no copy)
    /// when there is no base, no tag, or nothing relative.
    static func resolve(_ html: String, against base: String?) -> String {
        guard let base, !base.isEmpty else { return html }
        var copy = html
        return copy.withUTF8 { bytes -> String in
            guard let rewritten = rewrite(bytes, base: base) else { return html }
            return String(decoding: rewritten, as: UTF8.self)
        }
    }

    private static func rewrite(_ bytes: UnsafeBufferPointer<UInt8>, base: String) -> [UInt8]? {
        guard let p = bytes.baseAddress, memchr(p, Int32(UInt8(ascii: "<")), bytes.count) != nil else { return nil }
        var tokenizer = HTMLTokenizer(bytes)
        var out: [UInt8] = []
        var copied = 0
        while let token = tokenizer.next() {
            guard case .start(_, let attributes, _, _) = token else { continue }
            for attribute in attributes {
                guard let value = attribute.value, attribute.name.count >= 3, attribute.name.count <= 10,
                    urlAttributes.contains(tokenizer.lowercased(attribute.name))
                else { continue }
                let raw = String(decoding: bytes[value], as: UTF8.self)
                let trimmed = raw.trimmedASCII
                guard !trimmed.isEmpty, !URLResolver.hasScheme(trimmed), !trimmed.hasPrefix("#") else { continue }
                let resolved = URLResolver.resolve(trimmed, against: base)
                guard resolved != trimmed else { continue }
                if out.isEmpty { out.reserveCapacity(bytes.count + 64) }
                out.append(contentsOf: bytes[copied..<value.lowerBound])
                let quoted = value.lowerBound > 0 && (bytes[value.lowerBound - 1] == UInt8(ascii: "\"")
                    || bytes[value.lowerBound - 1] == UInt8(ascii: "'"))
                if !quoted { out.append(UInt8(ascii: "\"")) }
                for byte in resolved.utf8 {
                    // The value goes back inside the same quotes: escape what could end them.
                    switch byte {
                    case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                    case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                    default: out.append(byte)
                    }
                }
                if !quoted { out.append(UInt8(ascii: "\"")) }
                copied = value.upperBound
            }
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: bytes[copied...])
        return out
    }
}
