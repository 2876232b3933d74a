extension StartTagLimit {
    /// What an internal DTD subset (`<!DOCTYPE rss [ … ]>`) adds to start tags: attribute
    /// defaults. libxml2 applies every default an `<!ATTLIST>` declares for an element to each
    /// start tag of that element (whatever SAX callbacks are set), checking each one against the
    /// attributes already there: 40,000 defaults held it 1.3 s per empty `<item/>`, inside the
    /// start tag where nothing can stop it. So the scan counts them as the element's attributes.
    ///
    /// Only what libxml2 reads as declarations counts: the subset is read quote-aware (a `>` or
    /// `<!--` inside an entity value ends nothing), parameter entities are not expanded (our SAX
    /// handler resolves none, so libxml2 skips `%name;`), and a start tag met inside the subset
    /// ends it, as libxml2 then parses that tag as the root element.
    struct Defaults: Equatable {
        /// Attribute definitions with a default value (a quoted string).
        var attributes = 0
        /// Definitions of `xmlns` or `xmlns:…` (namespace declarations added to each start tag).
        var namespaces = 0
    }

    /// A read position over bytes that skips NUL bytes (UTF-16/32 input), as the scan does.
    struct Cursor {
        let bytes: [UInt8]
        var index: Int

        /// The next non-NUL byte, not consumed.
        mutating func peek() -> UInt8? {
            while index < bytes.count && bytes[index] == 0 { index += 1 }
            return index < bytes.count ? bytes[index] : nil
        }

        /// The next non-NUL byte, consumed.
        mutating func take() -> UInt8? {
            guard let byte = peek() else { return nil }
            index += 1
            return byte
        }

        /// Consumes `word` when the next non-NUL bytes are exactly it.
        mutating func consume(_ word: StaticString) -> Bool {
            let saved = index
            for k in 0..<word.utf8CodeUnitCount where take() != word.utf8Start[k] {
                index = saved
                return false
            }
            return true
        }

        /// Consumes bytes up to and including the next occurrence of `terminator`.
        mutating func skip(past terminator: StaticString) {
            let first = terminator.utf8Start[0]
            while let byte = take() {
                guard byte == first else { continue }
                let saved = index
                index -= 1
                if consume(terminator) { return }
                index = saved
            }
        }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// Consumes a run of name bytes and returns it (empty when none).
        mutating func takeName() -> [UInt8] {
            var name: [UInt8] = []
            while let byte = peek(), StartTagLimit.isNameByte(byte) {
                name.append(byte)
                index += 1
            }
            return name
        }

        /// Consumes up to and including the next `>` outside quotes.
        mutating func skipDeclaration() {
            while let byte = take() {
                if byte == UInt8(ascii: ">") { return }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { skipQuoted(byte) }
            }
        }

        /// Consumes up to and including the closing `quote`.
        mutating func skipQuoted(_ quote: UInt8) {
            while let byte = take(), byte != quote {}
        }
    }

    /// Reads a markup declaration whose `<!` ends just before `start`; returns the index where
    /// the scan goes on. A DOCTYPE's internal subset adds its attribute defaults to `defaults`.
    static func skipDeclaration(_ bytes: [UInt8], from start: Int, defaults: inout [[UInt8]: Defaults]) -> Int {
        var cursor = Cursor(bytes: bytes, index: start)
        guard cursor.consume("DOCTYPE") else {
            cursor.skipDeclaration()
            return cursor.index
        }
        while let byte = cursor.take() {
            switch byte {
            case UInt8(ascii: ">"):
                return cursor.index
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                cursor.skipQuoted(byte)
            case UInt8(ascii: "["):
                guard internalSubset(&cursor, defaults: &defaults) else { return cursor.index }
                cursor.skipSpace()
                if cursor.peek() == UInt8(ascii: ">") { cursor.index += 1 }
                return cursor.index
            default:
                continue
            }
        }
        return cursor.index
    }

    /// Reads an internal subset after its `[`: true at its `]` (consumed), false at a start tag
    /// (left for the caller: libxml2 parses it as the root) or the end of the bytes.
    private static func internalSubset(_ cursor: inout Cursor, defaults: inout [[UInt8]: Defaults]) -> Bool {
        while let byte = cursor.peek() {
            if byte == UInt8(ascii: "]") {
                cursor.index += 1
                return true
            }
            guard byte == UInt8(ascii: "<") else {
                cursor.index += 1  // blanks, `%name;`, or text libxml2 stops at
                continue
            }
            let tag = cursor.index
            cursor.index += 1
            if cursor.consume("!--") {
                cursor.skip(past: "-->")
            } else if cursor.consume("?") {
                cursor.skip(past: "?>")
            } else if cursor.consume("!ATTLIST") {
                attributeList(&cursor, defaults: &defaults)
            } else if cursor.consume("!") {
                cursor.skipDeclaration()
            } else {
                cursor.index = tag
                return false
            }
        }
        return false
    }

    /// Reads `<!ATTLIST element (name type default)* >` after its keyword: each quoted string
    /// outside parentheses is one default value; `xmlns`/`xmlns:…` names are namespace ones.
    private static func attributeList(_ cursor: inout Cursor, defaults: inout [[UInt8]: Defaults]) {
        cursor.skipSpace()
        let element = cursor.takeName()
        var found = Defaults()
        var depth = 0
        while let byte = cursor.peek() {
            if isNameByte(byte) {
                let name = cursor.takeName()
                if depth == 0, name.starts(with: Self.xmlnsBytes),
                    name.count == 5 || name[5] == UInt8(ascii: ":")
                {
                    found.namespaces += 1
                }
                continue
            }
            cursor.index += 1
            if byte == UInt8(ascii: ">") { break }
            switch byte {
            case UInt8(ascii: "("):
                depth += 1
            case UInt8(ascii: ")"):
                depth = max(0, depth - 1)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                cursor.skipQuoted(byte)
                if depth == 0 { found.attributes += 1 }
            default:
                break
            }
        }
        defaults[element, default: Defaults()].attributes += found.attributes
        defaults[element, default: Defaults()].namespaces += found.namespaces
    }

    private static let xmlnsBytes = Array("xmlns".utf8)
}
