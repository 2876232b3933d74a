/// A linear pre-check run before libxml2 sees a document: the most attributes any start tag
/// holds. libxml2 2.9 (Debian 12) compares each attribute of a start tag with every earlier one,
/// inside one call that no SAX callback can interrupt: one element with 200,000 attributes
/// (3 MB) took 36 s. Capping the count per tag bounds that work (to well under a second for a
/// 10 MiB document) without touching well-formed feeds, whose elements carry a few attributes
/// and whose root carries a few dozen namespace declarations.
///
/// The scan works on raw bytes in any ASCII-compatible encoding and in UTF-16/32 (NUL bytes are
/// skipped): it counts `=` outside quotes between `<name` and the closing `>`, and skips
/// comments, CDATA sections, processing instructions, declarations and end tags. It errs
/// towards counting too few on broken markup, never towards refusing a normal feed.
public enum StartTagLimit {
    /// The most attributes accepted on one element.
    public static let maxAttributes = 256

    /// The largest attribute count of any start tag in `bytes` (stops counting past `limit`).
    public static func maxAttributeCount(_ bytes: [UInt8], stoppingAbove limit: Int = .max) -> Int {
        let lt = UInt8(ascii: "<")
        let gt = UInt8(ascii: ">")
        let eq = UInt8(ascii: "=")
        let dq = UInt8(ascii: "\"")
        let sq = UInt8(ascii: "'")
        var most = 0
        var i = 0
        let n = bytes.count
        // The next non-NUL byte at or after `j`, and its index.
        func next(_ j: Int) -> (UInt8, Int)? {
            var k = j
            while k < n {
                if bytes[k] != 0 { return (bytes[k], k) }
                k += 1
            }
            return nil
        }
        // Moves `i` past the next occurrence of `terminator` (non-NUL bytes only).
        func skip(past terminator: [UInt8]) {
            var matched = 0
            while i < n {
                let b = bytes[i]
                i += 1
                if b == 0 { continue }
                matched = b == terminator[matched] ? matched + 1 : (b == terminator[0] ? 1 : 0)
                if matched == terminator.count { return }
            }
        }
        while i < n {
            guard bytes[i] == lt else {
                i += 1
                continue
            }
            guard let (first, at) = next(i + 1) else { break }
            i = at
            switch first {
            case UInt8(ascii: "!"):
                if let (a, ai) = next(at + 1), a == UInt8(ascii: "-"), let (b, _) = next(ai + 1), b == UInt8(ascii: "-")
                {
                    skip(past: Array("-->".utf8))
                } else if let (a, _) = next(at + 1), a == UInt8(ascii: "[") {
                    skip(past: Array("]]>".utf8))
                } else {
                    skip(past: [gt])
                }
            case UInt8(ascii: "?"):
                skip(past: Array("?>".utf8))
            case UInt8(ascii: "/"):
                skip(past: [gt])
            case _ where !isNameByte(first):
                continue  // a stray '<' in text ("a < b"): no tag, as libxml2 sees it
            default:
                var count = 0
                var quote: UInt8 = 0
                var previous: UInt8 = 0  // the last byte outside quotes that is not white space
                while i < n {
                    let b = bytes[i]
                    i += 1
                    if b == 0 { continue }
                    if quote != 0 {
                        if b == quote { quote = 0 }
                        continue
                    }
                    defer { if !(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D) { previous = b } }
                    if b == dq || b == sq {
                        quote = b
                    } else if b == eq {
                        if isNameByte(previous) { count += 1 }  // `name=`, not a run of '='
                    } else if b == gt || b == lt {
                        if b == lt { i -= 1 }  // an unclosed tag: the next one starts here
                        break
                    }
                }
                most = max(most, count)
                if most > limit { return most }
            }
        }
        return most
    }

    // A byte that can be part of an XML name: ASCII letters, digits, `_ : . -`, and every byte
    // of a multi-byte UTF-8 sequence.
    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == 0x5F || b == 0x3A || b == 0x2E || b == 0x2D || b >= 0x80
    }

    /// Throws `DocumentRefused(.tooManyAttributes)` when a start tag in `bytes` has more than
    /// `maxAttributes` attributes.
    public static func check(_ bytes: [UInt8]) throws(DocumentRefused) {
        if maxAttributeCount(bytes, stoppingAbove: maxAttributes) > maxAttributes {
            throw DocumentRefused(.tooManyAttributes(limit: maxAttributes))
        }
    }
}
