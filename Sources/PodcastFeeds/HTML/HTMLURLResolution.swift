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
        guard mayHoldRelativeURL(bytes) else { return nil }
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
                let quoted =
                    value.lowerBound > 0
                    && (bytes[value.lowerBound - 1] == UInt8(ascii: "\"")
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

    /// A quick pre-scan (memchr for `=`) that rules out most show notes without tokenising them:
    /// true when some `name = value` has a URL attribute name and a value without a scheme. It
    /// may say yes for text that only looks like an attribute; the tokeniser then decides.
    /// Whether `name` (ASCII letters, any case) is one of `urlAttributes`, compared on the bytes:
    /// this runs at every `=` of every show note, so it builds no string and hashes nothing.
    static func isURLAttribute(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        for candidate in urlAttributeBytes where candidate.count == name.count {
            var i = 0
            while i < name.count, name[i] | 0x20 == candidate[i] { i += 1 }
            if i == name.count { return true }
        }
        return false
    }

    /// `urlAttributes` as lower-case bytes, for `isURLAttribute`.
    static let urlAttributeBytes: [[UInt8]] = urlAttributes.map { Array($0.utf8) }

    static func mayHoldRelativeURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let n = bytes.count
        var offset = 0
        while offset < n, let hit = memchr(base + offset, Int32(UInt8(ascii: "=")), n - offset) {
            let equals = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            offset = equals + 1
            // The name before `=` (spaces allowed between).
            var end = equals
            while end > 0, HTMLTokenizer.isSpace(bytes[end - 1]) { end -= 1 }
            var start = end
            while start > 0, HTMLTokenizer.isLetter(bytes[start - 1]), end - start < 10 { start -= 1 }
            guard end - start >= 3, isURLAttribute(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { continue }
            // The value after it: relative unless it starts with a scheme (or is a bare fragment).
            var v = equals + 1
            while v < n,
                HTMLTokenizer.isSpace(bytes[v]) || bytes[v] == UInt8(ascii: "\"") || bytes[v] == UInt8(ascii: "'")
            { v += 1 }
            guard v < n, bytes[v] != UInt8(ascii: "#") else { continue }
            var k = v
            while k < n,
                HTMLTokenizer.isLetter(bytes[k]) || (bytes[k] >= 48 && bytes[k] <= 57) || bytes[k] == 43
                    || bytes[k] == 45 || bytes[k] == 46
            {
                k += 1
            }
            if !(k > v && k < n && bytes[k] == UInt8(ascii: ":") && HTMLTokenizer.isLetter(bytes[v])) { return true }
        }
        return false
    }
}
