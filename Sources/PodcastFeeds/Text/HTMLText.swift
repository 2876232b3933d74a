import CLibxml2
import Foundation

/// Small, allocation-light text helpers for feed fields: HTML detection and tag stripping,
/// whitespace squashing, and the Windows-1252 repair of C1 control characters.
enum HTMLText {
    /// True when `text` contains something that looks like an HTML tag: `<` + letter + name, then
    /// `>`, `/>` or whitespace and a later `>` (so `a < b` is not HTML).
    static func looksLikeHTML(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { looksLikeHTML(bytes: $0) }
    }

    private static func looksLikeHTML(bytes b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return false }
        var i = 0
        while i < b.count {
            // Jump to the next `<` (memchr): plain-text fields are scanned at memory speed.
            guard let hit = memchr(base + i, Int32(UInt8(ascii: "<")), b.count - i) else { return false }
            i = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if i + 1 < b.count, isLetter(b[i + 1]) {
                var j = i + 2
                while j < b.count, isLetter(b[j]) || isDigit(b[j]) { j += 1 }
                if j < b.count {
                    if b[j] == UInt8(ascii: ">") { return true }
                    if b[j] == UInt8(ascii: "/"), j + 1 < b.count, b[j + 1] == UInt8(ascii: ">") { return true }
                    if isSpace(b[j]), b[(j + 1)...].contains(UInt8(ascii: ">")) { return true }
                }
            }
            i += 1
        }
        return false
    }

    private static let blockTags: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table", "blockquote",
        "pre", "hr", "section", "article", "header", "footer", "dd", "dt",
    ]

    /// The readable text of an HTML fragment: tags removed (`script`/`style` with their content),
    /// entities decoded with libxml2's HTML table, block elements and `<br>` as line breaks,
    /// whitespace squashed, trimmed.
    static func plainText(fromHTML html: String) -> String {
        let b = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        var skipUntil: String? = nil
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "<") {
                // Comments
                if b[i...].starts(with: "<!--".utf8) {
                    var j = i + 4
                    while j + 2 < b.count, !(b[j] == 45 && b[j + 1] == 45 && b[j + 2] == 62) { j += 1 }
                    i = j + 3
                    continue
                }
                var j = i + 1
                let closing = j < b.count && b[j] == UInt8(ascii: "/")
                if closing { j += 1 }
                guard j < b.count, isLetter(b[j]) || b[j] == UInt8(ascii: "!") || b[j] == UInt8(ascii: "?") else {
                    if skipUntil == nil { out.append(c) }
                    i += 1
                    continue
                }
                let nameStart = j
                while j < b.count, isLetter(b[j]) || isDigit(b[j]) { j += 1 }
                let name = String(decoding: b[nameStart..<j], as: UTF8.self).lowercased()
                var quote: UInt8? = nil
                while j < b.count {
                    let d = b[j]
                    if let q = quote {
                        if d == q { quote = nil }
                    } else if d == UInt8(ascii: "\"") || d == UInt8(ascii: "'") {
                        quote = d
                    } else if d == UInt8(ascii: ">") {
                        break
                    }
                    j += 1
                }
                i = j + 1
                if let skip = skipUntil {
                    if closing && name == skip { skipUntil = nil }
                    continue
                }
                if !closing && (name == "script" || name == "style") {
                    skipUntil = name
                } else if blockTags.contains(name) {
                    out.append(0x0A)
                } else {
                    out.append(0x20)
                }
                continue
            }
            if skipUntil != nil {
                i += 1
                continue
            }
            if c == UInt8(ascii: "&"), let (scalar, length) = entity(b, i), let decoded = Unicode.Scalar(scalar) {
                out.append(contentsOf: Array(String(Character(decoded)).utf8))
                i += length
                continue
            }
            out.append(c)
            i += 1
        }
        return squash(String(decoding: out, as: UTF8.self), keepNewlines: true)
    }

    /// `text` with its character references and HTML named entities decoded (`&amp;` → `&`,
    /// `&#58;` → `:`); anything else, tags included, unchanged.
    static func decodeEntities(_ text: String) -> String {
        let b = Array(text.utf8)
        guard b.contains(UInt8(ascii: "&")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(b.count)
        var i = 0
        while i < b.count {
            if b[i] == UInt8(ascii: "&"), let (scalar, length) = entity(b, i), let decoded = Unicode.Scalar(scalar) {
                out.append(contentsOf: Array(String(Character(decoded)).utf8))
                i += length
                continue
            }
            out.append(b[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes the character reference or HTML named entity at `i` (`&...;`).
    private static func entity(_ b: [UInt8], _ i: Int) -> (UInt32, Int)? {
        var j = i + 1
        if j < b.count, b[j] == UInt8(ascii: "#") {
            j += 1
            var hex = false
            if j < b.count, b[j] | 0x20 == UInt8(ascii: "x") {
                hex = true
                j += 1
            }
            var value: UInt32 = 0
            let start = j
            while j < b.count, j - start < 8 {
                let d = b[j]
                if isDigit(d) {
                    value = value * (hex ? 16 : 10) + UInt32(d - 48)
                } else if hex, (d | 0x20) >= 97, (d | 0x20) <= 102 {
                    value = value * 16 + UInt32((d | 0x20) - 87)
                } else {
                    break
                }
                j += 1
            }
            guard j > start, j < b.count, b[j] == UInt8(ascii: ";"), Unicode.Scalar(value) != nil, value != 0 else {
                return nil
            }
            return (windows1252(value), j + 1 - i)
        }
        let start = j
        while j < b.count, j - start < 32, isLetter(b[j]) || isDigit(b[j]) { j += 1 }
        guard j > start, j < b.count, b[j] == UInt8(ascii: ";") else { return nil }
        var name = Array(b[start..<j])
        name.append(0)
        if let found = htmlEntityLookup(name) {
            return (UInt32(found.pointee.value), j + 1 - i)
        }
        switch String(decoding: b[start..<j], as: UTF8.self) {
        case "apos": return (39, j + 1 - i)
        default: return nil
        }
    }

    /// ASCII whitespace runs (not U+00A0, which is meaningful) become one space (or one newline, when `keepNewlines` and the run holds a
    /// line break); the result is trimmed. `squash(" a \n\n b ", keepNewlines: true)` == `"a\nb"`.
    static func squash(_ text: String, keepNewlines: Bool) -> String {
        var copy = text
        return copy.withUTF8 { bytes -> String in
            // Most values need no change: check first, allocate only when they do.
            if isSquashed(bytes) { return text }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var pendingSpace = false
            var pendingNewline = false
            for byte in bytes {
                if isASCIISpace(byte) {
                    if keepNewlines && (byte == 0x0A || byte == 0x0D) {
                        pendingNewline = true
                    } else {
                        pendingSpace = true
                    }
                    continue
                }
                if !out.isEmpty {
                    if pendingNewline { out.append(0x0A) } else if pendingSpace { out.append(0x20) }
                }
                pendingSpace = false
                pendingNewline = false
                out.append(byte)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// True when `squash` would return `b` unchanged: no ASCII whitespace at either end, and
    /// inside only single spaces (0x20). Eight bytes at a time on the common path.
    private static func isSquashed(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = b.baseAddress, b.count > 0 else { return true }
        let n = b.count
        if isASCIISpace(p[0]) || isASCIISpace(p[n - 1]) { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var i = 0
        while i + 8 <= n {
            let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
            // Per byte, exact (no carries cross bytes): high bit set when the byte is > 0x20 ...
            let above = (((word & lows) &+ 0x5F &* ones) | word) & highs
            // ... and when the byte is exactly 0x20.
            let flipped = word ^ (0x20 &* ones)
            let spaces = ~(((flipped & lows) &+ lows) | flipped) & highs
            let atMostSpace = ~above & highs
            // A byte <= 0x20 other than a space (tab, line break, control): look byte by byte.
            if atMostSpace & ~spaces != 0 { break }
            // Two spaces side by side in this word (little-endian: byte k+1 shifts onto byte k).
            if spaces & (spaces >> 8) != 0 { return false }
            // A space ending this word followed by whitespace starting the next.
            if spaces & (0x80 << 56) != 0, i + 8 < n, isASCIISpace(p[i + 8]) { return false }
            i += 8
        }
        while i < n {
            let byte = p[i]
            i += 1
            if byte > 0x20 { continue }
            if byte == 0x20 {
                if i < n && isASCIISpace(p[i]) { return false }
            } else if byte >= 0x09 && byte <= 0x0D {
                return false
            }
        }
        return true
    }

    /// Plain text with spaces and tabs squashed but line breaks kept, trimmed.
    static func squashKeepingLines(_ text: String) -> String {
        squash(text, keepNewlines: true)
    }

    /// The Windows-1252 character meant by a C1 control code point (U+0080–U+009F), the usual
    /// result of cp1252 text labelled Latin-1; other code points unchanged.
    static func windows1252(_ value: UInt32) -> UInt32 {
        guard value >= 0x80, value <= 0x9F else { return value }
        let table: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
            0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
            0x0153, 0x9D, 0x017E, 0x0178,
        ]
        return table[Int(value - 0x80)]
    }

    /// Decodes UTF-8 text bytes, repairing UTF-8 that was encoded twice
    /// (`MisencodedText.doublyEncoded`, unless `isIdentifier`: an id or URL stays as written)
    /// and C1 controls (`C2 80`–`C2 9F`) as Windows-1252.
    static func decode(_ b: UnsafeBufferPointer<UInt8>, isIdentifier: Bool = false) -> String {
        if !isIdentifier, let repaired = MisencodedText.doublyEncoded(b) {
            return String(decoding: repaired, as: UTF8.self)
        }
        do {
            guard let first = firstC1(b, from: 0) else { return String(decoding: b, as: UTF8.self) }
            // Rare: copy, rewriting each C1 control as the UTF-8 of its Windows-1252 character.
            var out: [UInt8] = []
            out.reserveCapacity(b.count + 8)
            var i = 0
            var next: Int? = first
            while let c1 = next {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<c1]))
                appendUTF8(windows1252(UInt32(b[c1 + 1])), to: &out)
                i = c1 + 2
                next = firstC1(b, from: i)
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...]))
            return String(decoding: out, as: UTF8.self)
        }
    }

    // The index of the next `C2 80`...`C2 9F` pair (a C1 control's UTF-8) at or after `from`.
    private static func firstC1(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = b.baseAddress else { return nil }
        var offset = from
        while offset < b.count - 1 {
            guard let hit = memchr(base + offset, 0xC2, b.count - 1 - offset) else { return nil }
            let index = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            if b[index + 1] >= 0x80 && b[index + 1] <= 0x9F { return index }
            offset = index + 1
        }
        return nil
    }

    /// Appends the UTF-8 form of a scalar below U+10000.
    static func appendUTF8(_ value: UInt32, to out: inout [UInt8]) {
        switch value {
        case ..<0x80: out.append(UInt8(value))
        case ..<0x800:
            out.append(UInt8(0xC0 | (value >> 6)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        default:
            out.append(UInt8(0xE0 | (value >> 12)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    private static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}
