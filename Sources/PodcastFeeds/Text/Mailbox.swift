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

    /// The mailbox in `value`; `nil` for empty text.
    init?(_ value: String) {
        let text = HTMLText.squash(value, keepNewlines: false)
        guard !text.isEmpty else { return nil }
        // A bare name (most `dc:creator`s) needs no search.
        guard text.utf8.contains(UInt8(ascii: "@")), let range = Self.address(in: text) else {
            name = text
            return
        }
        email = String(text[range])
        var rest = String(text[..<range.lowerBound])
        if rest.lowercased().hasSuffix("mailto:") { rest.removeLast(7) }
        rest += text[range.upperBound...]
        rest = rest.replacingOccurrences(of: "()", with: "").replacingOccurrences(of: "<>", with: "")
            .replacingOccurrences(of: "( )", with: "").replacingOccurrences(of: "< >", with: "")
        var trimmed = HTMLText.squash(rest, keepNewlines: false)
        // What brackets or quotes the whole name: `(Jo Smith)`, `"Jo Smith"`.
        while let first = trimmed.first, let last = trimmed.last, trimmed.count >= 2,
            (first == "(" && last == ")") || (first == "\"" && last == "\"")
        {
            trimmed = HTMLText.squash(String(trimmed.dropFirst().dropLast()), keepNewlines: false)
        }
        name = trimmed.isEmpty ? nil : trimmed
    }

    /// The name, else the address: what shows where one string names the person.
    var displayName: String { name ?? email ?? "" }

    /// The first `local@domain.tld` in `text`: a local part of letters, digits and `._%+-`, a
    /// domain of letters, digits, `-` and `.` with at least one dot and no dot at either end.
    static func address(in text: String) -> Range<String.Index>? {
        let scalars = text.unicodeScalars
        func isLocal(_ s: Unicode.Scalar) -> Bool {
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || "._%+-".unicodeScalars.contains(s))
        }
        func isDomain(_ s: Unicode.Scalar) -> Bool {
            s.isASCII && (s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == ".")
        }
        var at = scalars.startIndex
        while let found = scalars[at...].firstIndex(of: "@") {
            var start = found
            while start > scalars.startIndex, isLocal(scalars[scalars.index(before: start)]) {
                start = scalars.index(before: start)
            }
            var end = scalars.index(after: found)
            while end < scalars.endIndex, isDomain(scalars[end]) { end = scalars.index(after: end) }
            // A sentence's full stop after the address is not part of it.
            while end > scalars.index(after: found), scalars[scalars.index(before: end)] == "." {
                end = scalars.index(before: end)
            }
            let domain = String(scalars[scalars.index(after: found)..<end])
            if start < found, domain.contains("."), !domain.hasPrefix(".") {
                return start..<end
            }
            at = scalars.index(after: found)
        }
        return nil
    }
}
