/// A forgiving tokenizer for the HTML fragments feeds carry (show notes, Atom `html` content):
/// text runs, start tags with their attributes, end tags; comments, doctypes and processing
/// instructions are reported as skipped markup. It never fails: a `<` that starts no tag is text,
/// an unterminated tag ends the input as text. Byte-level over UTF-8; every range indexes `bytes`.
struct HTMLTokenizer {
    /// One attribute of a start tag, as byte ranges into the input.
    struct Attribute {
        /// The name, as written.
        var name: Range<Int>
        /// The value without its quotes; `nil` for a bare attribute (`controls`).
        var value: Range<Int>?
    }

    enum Token {
        /// Text between tags, as written (entities not decoded).
        case text(Range<Int>)
        /// `<name attr=value ...>`; `selfClosing` for `<br/>`. `whole` spans `<` to `>`.
        case start(name: Range<Int>, attributes: [Attribute], selfClosing: Bool, whole: Range<Int>)
        /// `</name>`.
        case end(name: Range<Int>, whole: Range<Int>)
        /// A comment, doctype, CDATA section or processing instruction.
        case skipped(Range<Int>)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next token, or `nil` at the end of the input.
    mutating func next() -> Token? {
        let n = bytes.count
        guard i < n else { return nil }
        let start = i
        if bytes[i] == UInt8(ascii: "<"), let token = markup() { return token }
        // Text up to the next `<` that is not the one we stand on.
        i = start + 1
        while i < n, bytes[i] != UInt8(ascii: "<") { i += 1 }
        return .text(start..<i)
    }

    private mutating func markup() -> Token? {
        let n = bytes.count
        let start = i
        var j = i + 1
        guard j < n else { return nil }
        if bytes[j] == UInt8(ascii: "!") || bytes[j] == UInt8(ascii: "?") {
            if starts(with: "<!--", at: start) {
                j = start + 4
                while j + 2 < n, !(bytes[j] == 45 && bytes[j + 1] == 45 && bytes[j + 2] == 62) { j += 1 }
                i = min(n, j + 3)
            } else {
                while j < n, bytes[j] != UInt8(ascii: ">") { j += 1 }
                i = min(n, j + 1)
            }
            return .skipped(start..<i)
        }
        let closing = bytes[j] == UInt8(ascii: "/")
        if closing { j += 1 }
        guard j < n, Self.isLetter(bytes[j]) else { return nil }
        let nameStart = j
        while j < n, Self.isNameByte(bytes[j]) { j += 1 }
        let name = nameStart..<j
        if closing {
            while j < n, bytes[j] != UInt8(ascii: ">") { j += 1 }
            guard j < n else { return nil }
            i = j + 1
            return .end(name: name, whole: start..<i)
        }
        var attributes: [Attribute] = []
        var selfClosing = false
        while true {
            while j < n, Self.isSpace(bytes[j]) || bytes[j] == UInt8(ascii: "/") {
                selfClosing = bytes[j] == UInt8(ascii: "/")
                j += 1
            }
            guard j < n else { return nil }
            if bytes[j] == UInt8(ascii: ">") { break }
            selfClosing = false
            let attributeStart = j
            while j < n, !Self.isSpace(bytes[j]), bytes[j] != UInt8(ascii: "="), bytes[j] != UInt8(ascii: ">"),
                bytes[j] != UInt8(ascii: "/") || j == attributeStart
            {
                j += 1
            }
            let attributeName = attributeStart..<j
            while j < n, Self.isSpace(bytes[j]) { j += 1 }
            var value: Range<Int>? = nil
            if j < n, bytes[j] == UInt8(ascii: "=") {
                j += 1
                while j < n, Self.isSpace(bytes[j]) { j += 1 }
                guard j < n else { return nil }
                if bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
                    let quote = bytes[j]
                    let valueStart = j + 1
                    j = valueStart
                    while j < n, bytes[j] != quote { j += 1 }
                    guard j < n else { return nil }
                    value = valueStart..<j
                    j += 1
                } else {
                    let valueStart = j
                    while j < n, !Self.isSpace(bytes[j]), bytes[j] != UInt8(ascii: ">") { j += 1 }
                    value = valueStart..<j
                }
            }
            attributes.append(Attribute(name: attributeName, value: value))
        }
        i = j + 1
        return .start(name: name, attributes: attributes, selfClosing: selfClosing, whole: start..<i)
    }

    private func starts(with prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for k in 0..<count where bytes[index + k] != prefix.utf8Start[k] { return false }
        return true
    }

    /// The ASCII-lower-cased text of a range (names of tags and attributes).
    func lowercased(_ range: Range<Int>) -> String {
        String(decoding: bytes[range].map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 97 && (b | 0x20) <= 122 }
    static func isNameByte(_ b: UInt8) -> Bool {
        isLetter(b) || (b >= 48 && b <= 57) || b == UInt8(ascii: "-") || b == UInt8(ascii: ":")
            || b == UInt8(ascii: "_")
    }
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
}
