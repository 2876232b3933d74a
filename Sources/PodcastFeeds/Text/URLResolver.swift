import CLibxml2
import Foundation

/// Resolves URL references from a feed (RFC 3986 §5) against the document URL or `xml:base`,
/// using libxml2's `xmlBuildURI`. Absolute references are returned as written (only trimmed), so
/// ids and URLs survive byte for byte.
///
/// A relative reference (or a base) that RFC 3986 does not allow as written, because it holds a
/// space, a non-ASCII character, `"`, `<`, `>`, `` ` ``, `{`, `}`, `|`, `^`, `[`, `]` or a `%` that
/// starts no escape, is resolved as a browser resolves it (WHATWG URL): those bytes
/// percent-encoded (UTF-8), and, for an http(s) base, `\` read as `/`. `audio/épisode 1.mp3`
/// against `https://example.com/feed.xml` gives `https://example.com/audio/%C3%A9pisode%201.mp3`.
enum URLResolver {
    /// `reference` trimmed and, when relative, resolved against `base`. If libxml2 cannot resolve
    /// it even percent-encoded (an unparseable reference or base), the trimmed reference is
    /// returned unchanged.
    static func resolve(_ reference: String, against base: String?) -> String {
        let trimmed = reference.trimmedASCII
        guard !trimmed.isEmpty, let base, !base.isEmpty, !hasScheme(trimmed) else { return trimmed }
        // libxml2 gives the reference back unresolved for a base it cannot parse: escape the base first.
        let webBase = needsEncoding(base) ? percentEncoded(base, backslashIsSlash: false) : base
        if let built = build(trimmed, webBase) { return built }
        // The browser's way: what RFC 3986 forbids, escaped, then resolved again.
        let backslashIsSlash = webBase.prefix(4).lowercased() == "http"
        return build(percentEncoded(trimmed, backslashIsSlash: backslashIsSlash), webBase) ?? trimmed
    }

    private static func build(_ reference: String, _ base: String) -> String? {
        guard let built = xmlBuildURI(reference, base) else { return nil }
        defer { free(built) }
        return String(cString: built)
    }

    /// True when `text` holds a byte `percentEncoded` would change (a `%` aside).
    static func needsEncoding(_ text: String) -> Bool {
        text.utf8.contains { byte in
            byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "{")
                || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "^")
                || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "\\")
        }
    }

    /// `text` with every byte a URL may not hold as written percent-encoded: controls, space,
    /// non-ASCII (as UTF-8), `"<>`{}|^[]\` and a `%` not followed by two hex digits. `\` becomes
    /// `/` instead when `backslashIsSlash` (a browser reads it so in http(s) URLs).
    static func percentEncoded(_ text: String, backslashIsSlash: Bool) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        let hex = Array("0123456789ABCDEF".utf8)
        func isHex(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || ((b | 0x20) >= 97 && (b | 0x20) <= 102) }
        for (index, byte) in bytes.enumerated() {
            var escape = byte <= 0x20 || byte >= 0x7F
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"), UInt8(ascii: "{"),
                UInt8(ascii: "}"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "["), UInt8(ascii: "]"):
                escape = true
            case UInt8(ascii: "\\"):
                if backslashIsSlash {
                    out.append(UInt8(ascii: "/"))
                    continue
                }
                escape = true
            case UInt8(ascii: "%"):
                escape = !(index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2]))
            default:
                break
            }
            if escape {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// True when the reference starts with an RFC 3986 scheme (`ALPHA *( ALPHA / DIGIT / + - . ) :`).
    static func hasScheme(_ text: String) -> Bool {
        var first = true
        for byte in text.utf8 {
            let isAlpha = (byte | 0x20) >= 97 && (byte | 0x20) <= 122
            if first {
                guard isAlpha else { return false }
                first = false
                continue
            }
            if byte == UInt8(ascii: ":") { return true }
            guard isAlpha || (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46 else { return false }
        }
        return false
    }
}
