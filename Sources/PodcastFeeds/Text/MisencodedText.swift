#if canImport(Glibc)
import Glibc
#endif

/// Repairs of text that was encoded or escaped one time too many on its way into a feed, each
/// made only where the result is unambiguous (feedparser makes the same repairs):
/// - UTF-8 read as Latin-1 or Windows-1252 and written out again as UTF-8 ("â€¦" for "…",
///   "Ã©" for "é"): undone when every non-ASCII character of the text maps back to one byte and
///   those bytes are well-formed UTF-8 (a text with a real "é" or "…" beside them is left alone);
/// - character references escaped twice (`&amp;#8217;`, read as the text `&#8217;`): decoded in
///   the plain-text fields of RSS, where the text can hold no literal reference. `&lt;` and `&gt;`
///   stay as they are: text about markup may mean them literally.
enum MisencodedText {
    /// True when `text` holds a `&` that starts a character reference (`&#…;`) or a named one
    /// other than `&lt;`/`&gt;`: the usual "Q & A" costs one scan and no copy.
    private static func hasLeftoverReference(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { b -> Bool in
            guard let base = b.baseAddress else { return false }
            var offset = 0
            while offset < b.count, let hit = memchr(base + offset, Int32(UInt8(ascii: "&")), b.count - offset) {
                let i = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                var j = i + 1
                if j < b.count, b[j] == UInt8(ascii: "#") { j += 1 }
                let start = j
                while j < b.count, j - start < 32,
                    (b[j] | 0x20) >= 97 && (b[j] | 0x20) <= 122 || (b[j] >= 48 && b[j] <= 57)
                {
                    j += 1
                }
                if j > start, j < b.count, b[j] == UInt8(ascii: ";") {
                    let kept =
                        j - start == 2 && (b[start] == UInt8(ascii: "l") || b[start] == UInt8(ascii: "g"))
                        && b[start + 1] == UInt8(ascii: "t") && b[start - 1] != UInt8(ascii: "#")
                    if !kept { return true }
                }
                offset = i + 1
            }
            return false
        }
    }

    /// The UTF-8 text `b` decoded as UTF-8 once more when it is UTF-8 that was decoded as
    /// Windows-1252 (or Latin-1); `nil` when it is not (the usual case, found at the first
    /// non-ASCII character that does not fit).
    static func doublyEncoded(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // Any multi-byte UTF-8 sequence misread starts with a character of U+00C2...U+00F4,
        // whose UTF-8 begins with C3: text without that byte needs no look.
        guard let base = b.baseAddress, memchr(base, 0xC3, b.count) != nil else { return nil }
        var out: [UInt8] = []
        var pending = 0  // continuation bytes the current sequence still needs
        var merged = false
        var i = 0
        while i < b.count {
            let lead = b[i]
            var scalar = UInt32(lead)
            var length = 1
            if lead >= 0xC0 {
                length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                guard i + length <= b.count else { return nil }
                scalar = UInt32(lead) & (lead >= 0xF0 ? 0x07 : lead >= 0xE0 ? 0x0F : 0x1F)
                for k in 1..<length { scalar = scalar << 6 | UInt32(b[i + k] & 0x3F) }
            } else if lead >= 0x80 {
                return nil  // not UTF-8 to begin with
            }
            guard let byte = singleByte(scalar) else { return nil }
            if pending > 0 {
                guard byte >= 0x80, byte <= 0xBF else { return nil }
                pending -= 1
                if pending == 0 { merged = true }
            } else if byte >= 0x80 {
                switch byte {
                case 0xC2...0xDF: pending = 1
                case 0xE0...0xEF: pending = 2
                case 0xF0...0xF4: pending = 3
                default: return nil
                }
            }
            if out.isEmpty { out.reserveCapacity(b.count) }
            out.append(byte)
            i += length
        }
        guard pending == 0, merged else { return nil }
        // Overlong forms and surrogates are not UTF-8 either.
        return String(validating: out, as: UTF8.self) != nil ? out : nil
    }

    /// The byte Windows-1252 (or, for U+0080...U+009F, Latin-1) encodes `scalar` as; `nil` for a
    /// character neither encodes.
    private static func singleByte(_ scalar: UInt32) -> UInt8? {
        if scalar <= 0xFF { return UInt8(scalar) }
        for index in 0..<32 where HTMLText.windows1252(UInt32(0x80 + index)) == scalar {
            return UInt8(0x80 + index)
        }
        return nil
    }

    /// `text` with the character references and HTML named entities that survived one decoding
    /// decoded (`&#8217;` → `’`, `&amp;` → `&`), but `&lt;` and `&gt;` kept. `text` itself when it
    /// holds no `&`.
    static func leftoverReferencesDecoded(_ text: String) -> String {
        guard hasLeftoverReference(text) else { return text }
        var pieces: [Substring] = []
        var rest = Substring(text)
        while let range = rest.range(of: "&lt;") ?? rest.range(of: "&gt;") {
            // Decode around each kept `&lt;`/`&gt;` (rare in a title).
            let first =
                [rest.range(of: "&lt;"), rest.range(of: "&gt;")].compactMap { $0 }
                .min { $0.lowerBound < $1.lowerBound } ?? range
            pieces.append(rest[..<first.lowerBound])
            pieces.append(rest[first])
            rest = rest[first.upperBound...]
        }
        pieces.append(rest)
        return pieces.enumerated().map { index, piece in
            index % 2 == 1 ? String(piece) : HTMLText.decodeEntities(String(piece))
        }.joined()
    }
}
