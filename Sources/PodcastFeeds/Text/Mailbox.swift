import Foundation

/// A person as RSS and Dublin Core write one in a single text: a name, an e-mail address, or
/// both in any of the shapes feeds use (`jo@example.com (Jo Smith)`, `Jo Smith <jo@example.com>`,
/// `Jo Smith (jo@example.com)`, `Jo Smith jo@example.com`, `mailto:` before the address). Split
/// as feedparser splits authors: the address is the first `local@domain.tld` in the text, the
/// name what is left once it and the brackets around it are removed.
struct Mailbox: Equatable {
    /// The name, whitespace collapsed; `nil` when the text is only an address.
    var name: String?
    /// The address; `nil` when the text holds none.
    var email: String?

    /// The mailbox in `value`; `nil` for empty text. Works on the UTF-8 bytes: every item of
    /// a feed may carry one, so this runs once per episode.
    init?(_ value: String) {
        let text = HTMLText.squash(value, keepNewlines: false)
        guard !text.isEmpty else { return nil }
        // A bare name (most `dc:creator`s) needs no search.
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "@")), let range = Self.address(in: bytes) else {
            name = text
            return
        }
        email = String(decoding: bytes[range], as: UTF8.self)
        var rest = Array(bytes[..<range.lowerBound])
        if rest.count >= 7, rest.suffix(7).map({ $0 | 0x20 }) == Array("mailto:".utf8) { rest.removeLast(7) }
        rest += bytes[range.upperBound...]
        var trimmed = HTMLText.squash(
            String(decoding: Self.withoutEmptyBrackets(rest), as: UTF8.self), keepNewlines: false)
        // What brackets or quotes the whole name: `(Jo Smith)`, `"Jo Smith"`.
        while trimmed.utf8.count >= 2, let first = trimmed.utf8.first, let last = trimmed.utf8.last,
            (first == UInt8(ascii: "(") && last == UInt8(ascii: ")"))
                || (first == UInt8(ascii: "\"") && last == UInt8(ascii: "\""))
        {
            trimmed = HTMLText.squash(String(trimmed.dropFirst().dropLast()), keepNewlines: false)
        }
        name = trimmed.isEmpty ? nil : trimmed
    }

    /// The name, else the address: what shows where one string names the person.
    var displayName: String { name ?? email ?? "" }

    /// `bytes` without the `()` and `<>` pairs (spaces allowed inside) the address left empty.
    private static func withoutEmptyBrackets(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let open = bytes[i]
            if open == UInt8(ascii: "(") || open == UInt8(ascii: "<") {
                let close = open == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: ">")
                var j = i + 1
                while j < bytes.count, bytes[j] == 0x20 { j += 1 }
                if j < bytes.count, bytes[j] == close {
                    i = j + 1
                    continue
                }
            }
            out.append(open)
            i += 1
        }
        return out
    }

    /// The first `local@domain.tld` in `bytes`: a local part of ASCII letters, digits and
    /// `._%+-`, a domain of ASCII letters, digits, `-` and `.` with at least one dot and no dot
    /// at either end.
    static func address(in bytes: [UInt8]) -> Range<Int>? {
        func isAlnum(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || ((b | 0x20) >= 97 && (b | 0x20) <= 122) }
        func isLocal(_ b: UInt8) -> Bool {
            isAlnum(b) || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "%")
                || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
        }
        func isDomain(_ b: UInt8) -> Bool { isAlnum(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") }
        var from = 0
        while let at = bytes[from...].firstIndex(of: UInt8(ascii: "@")) {
            var start = at
            while start > 0, isLocal(bytes[start - 1]) { start -= 1 }
            var end = at + 1
            while end < bytes.count, isDomain(bytes[end]) { end += 1 }
            // A sentence's full stop after the address is not part of it.
            while end > at + 1, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
            let domain = bytes[(at + 1)..<end]
            if start < at, domain.contains(UInt8(ascii: ".")), domain.first != UInt8(ascii: ".") {
                return start..<end
            }
            from = at + 1
        }
        return nil
    }
}
