#if canImport(Glibc)
import Glibc
#endif

/// A linear pre-check run before libxml2 sees a document: the most attributes any start tag
/// holds. libxml2 2.9 (Debian 12) compares each attribute of a start tag with every earlier one,
/// inside one call that no SAX callback can interrupt: one element with 200,000 attributes
/// (3 MB) took 36 s. Capping the count per tag bounds that work (to well under a second for a
/// 10 MiB document) without touching well-formed feeds, whose elements carry a few attributes
/// and whose root carries a few dozen namespace declarations.
///
/// The same scan measures the namespace work libxml2 will do: each namespace declaration
/// (`xmlns`, `xmlns:p`) is compared with every declaration in scope, so deep nesting with many
/// declarations per level is quadratic too (250 nested elements with 250 declarations each,
/// 9.7 MB, held both parse workers for the whole 10 s budget). The scan keeps the number of
/// declarations in scope (a stack of open elements) and adds, for each start tag, its
/// declarations times those already in scope; a document past `maxNamespaceWork` is refused.
///
/// The scan reads the bytes libxml2 will parse: `XMLReader` runs it on the decoded UTF-8 it hands
/// libxml2 (a UTF-7 or EBCDIC feed shows its `<` only once decoded), so every document any of
/// our parsers reads passes it. It also accepts UTF-16/32 (NUL bytes are skipped): it counts `=`
/// outside quotes between `<name` and the closing `>`, adds the attribute defaults a DOCTYPE's
/// internal subset declares for that element (`StartTagLimit.Defaults`), and skips comments,
/// CDATA sections, processing instructions, other declarations and end tags. It errs towards
/// counting too few on broken markup, never towards refusing a normal feed.
public enum StartTagLimit {
    /// The most attributes accepted on one element.
    public static let maxAttributes = 256

    /// The most namespace-declaration comparisons accepted for one document (each declaration
    /// times the declarations in scope where it appears): about 50 ms of libxml2's time. A
    /// normal feed needs a few hundred (a root with a few dozen declarations); one that
    /// re-declares a handful of namespaces on each of 10,000 items under such a root stays
    /// under 2 million.
    public static let maxNamespaceWork = 10_000_000

    /// What one pass over a document found.
    public struct Measure: Equatable, Sendable {
        /// The largest attribute count of any start tag.
        public var maxAttributes: Int
        /// The sum over start tags of (namespace declarations on the tag) x (declarations
        /// already in scope there).
        public var namespaceWork: Int
    }

    /// The largest attribute count of any start tag in `bytes` (stops counting past `limit`).
    public static func maxAttributeCount(_ bytes: [UInt8], stoppingAbove limit: Int = .max) -> Int {
        measure(bytes, attributeLimit: limit, namespaceWorkLimit: .max).maxAttributes
    }

    /// Measures `bytes` in one linear pass, stopping early once a limit is passed.
    public static func measure(_ bytes: [UInt8], attributeLimit limit: Int = .max, namespaceWorkLimit: Int = .max)
        -> Measure
    {
        // Over the buffer: it runs before every parse, and array indexing checked each byte.
        bytes.withUnsafeBufferPointer {
            measure($0, array: bytes, attributeLimit: limit, namespaceWorkLimit: namespaceWorkLimit)
        }
    }

    private static func measure(
        _ bytes: UnsafeBufferPointer<UInt8>, array: [UInt8], attributeLimit limit: Int, namespaceWorkLimit: Int
    ) -> Measure {
        var scan = Scan(bytes)
        let n = bytes.count
        var most = 0
        var work = 0
        var inScope = 0  // namespace declarations of the open elements
        var open: [Int] = []  // declarations per open element
        var defaults: [[UInt8]: Defaults] = [:]  // attribute defaults a DOCTYPE declares, per element
        while scan.i < n {
            guard bytes[scan.i] == UInt8(ascii: "<") else {
                // Text: on to the next '<' at memchr's speed.
                scan.i = scan.find(UInt8(ascii: "<"), from: scan.i)
                continue
            }
            guard let (first, at) = scan.next(scan.i + 1) else { break }
            scan.i = at
            switch first {
            case UInt8(ascii: "!"):
                scan.skipMarkupDeclaration(at: at, array: array, defaults: &defaults)
            case UInt8(ascii: "?"):
                scan.skip(past: Self.instructionEnd)
            case UInt8(ascii: "/"):
                scan.i = min(n, scan.find(UInt8(ascii: ">"), from: scan.i) + 1)
                if let declared = open.popLast() { inScope -= declared }
            case _ where !isNameByte(first):
                continue  // a stray '<' in text ("a < b"): no tag, as libxml2 sees it
            default:
                var tag = TagCount()
                if !defaults.isEmpty {
                    var name = Cursor(bytes: array, index: at)
                    if let declared = defaults[name.takeName()] {
                        tag.attributes = declared.attributes
                        tag.declarations = declared.namespaces
                    }
                }
                scan.readStartTag(into: &tag)
                most = max(most, tag.attributes)
                work += tag.declarations * inScope
                if !tag.selfClosing {
                    // Declarations of an empty element go out of scope with it.
                    open.append(tag.declarations)
                    inScope += tag.declarations
                }
                if most > limit || work > namespaceWorkLimit {
                    return Measure(maxAttributes: most, namespaceWork: work)
                }
            }
        }
        return Measure(maxAttributes: most, namespaceWork: work)
    }

    /// What one start tag holds: its attributes (with the DOCTYPE's defaults for its element),
    /// the namespace declarations among them, and whether it ends with `/>`.
    private struct TagCount {
        var attributes = 0
        var declarations = 0
        var selfClosing = false
    }

    /// The position of one pass over the bytes, and the moves it makes: NUL bytes (UTF-16/32)
    /// are skipped, and long stretches are crossed with memchr.
    private struct Scan {
        let bytes: UnsafeBufferPointer<UInt8>
        let n: Int
        var i = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            n = bytes.count
        }

        // The next non-NUL byte at or after `j`, and its index.
        func next(_ j: Int) -> (UInt8, Int)? {
            var k = j
            while k < n {
                if bytes[k] != 0 { return (bytes[k], k) }
                k += 1
            }
            return nil
        }

        // The index of the next `byte` at or after `j`, or `n`.
        func find(_ byte: UInt8, from j: Int) -> Int {
            guard j < n, let base = bytes.baseAddress, let hit = memchr(base + j, Int32(byte), n - j) else { return n }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }

        // Moves `i` past the next occurrence of `terminator` (non-NUL bytes only).
        // Comments and CDATA sections (show notes) can be most of a feed: found with memchr.
        mutating func skip(past terminator: [UInt8]) {
            while i < n {
                let start = find(terminator[0], from: i)
                guard start < n else {
                    i = n
                    return
                }
                var k = start + 1
                var matched = 1
                while matched < terminator.count, let (b, at) = next(k), b == terminator[matched] {
                    matched += 1
                    k = at + 1
                }
                if matched == terminator.count {
                    i = k
                    return
                }
                i = start + 1
            }
        }

        // `<!` at `at - 1`: a comment, a CDATA section, or a declaration (a DOCTYPE's internal
        // subset records its attribute defaults in `defaults`).
        mutating func skipMarkupDeclaration(at: Int, array: [UInt8], defaults: inout [[UInt8]: Defaults]) {
            if let (a, ai) = next(at + 1), a == UInt8(ascii: "-"), let (b, _) = next(ai + 1), b == UInt8(ascii: "-") {
                skip(past: StartTagLimit.commentEnd)
            } else if let (a, _) = next(at + 1), a == UInt8(ascii: "[") {
                skip(past: StartTagLimit.cdataEnd)
            } else {
                i = StartTagLimit.skipDeclaration(array, from: at + 1, defaults: &defaults)
            }
        }

        // From the start tag's name to its end: counts `name=` outside quotes, and the
        // `xmlns` / `xmlns:p` ones among them. Leaves `i` past the `>`, or at the `<` that
        // starts the next tag when this one is unclosed.
        mutating func readStartTag(into tag: inout TagCount) {
            var quote: UInt8 = 0
            var previous: UInt8 = 0  // the last byte outside quotes that is not white space
            // The last run of name bytes outside quotes (the attribute name before `=`): its
            // first six bytes, packed, and its length.
            var run: UInt64 = 0
            var runLength = 0
            var inRun = false
            while i < n {
                let b = bytes[i]
                i += 1
                if b == 0 { continue }
                if quote != 0 {
                    // A quoted value (a URL, a title): straight to its closing quote.
                    i = min(n, find(quote, from: i - 1) + 1)
                    quote = 0
                    continue
                }
                defer { if !(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D) { previous = b } }
                if isNameByte(b) {
                    if !inRun { (run, runLength, inRun) = (0, 0, true) }
                    if runLength < 6 { run |= UInt64(b) << (8 * UInt64(runLength)) }
                    runLength += 1
                    continue
                }
                inRun = false
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: "=") {
                    if isNameByte(previous) {  // `name=`, not a run of '='
                        tag.attributes += 1
                        if runLength == 5 ? run == xmlns : (runLength > 6 && run == xmlnsColon) {
                            tag.declarations += 1
                        }
                    }
                } else if b == UInt8(ascii: ">") || b == UInt8(ascii: "<") {
                    if b == UInt8(ascii: "<") { i -= 1 }  // an unclosed tag: the next one starts here
                    tag.selfClosing = b == UInt8(ascii: ">") && previous == UInt8(ascii: "/")
                    return
                }
            }
        }
    }

    private static let commentEnd = Array("-->".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let instructionEnd = Array("?>".utf8)

    // "xmlns" and "xmlns:" as packed by the scan (little-endian, first byte lowest).
    private static let xmlns: UInt64 = Array("xmlns".utf8).enumerated().reduce(0) {
        $0 | UInt64($1.element) << (8 * UInt64($1.offset))
    }
    private static let xmlnsColon: UInt64 = xmlns | UInt64(UInt8(ascii: ":")) << 40

    // A byte that can be part of an XML name: ASCII letters, digits, `_ : . -`, and every byte
    // of a multi-byte UTF-8 sequence.
    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == 0x5F || b == 0x3A || b == 0x2E || b == 0x2D || b >= 0x80
    }

    /// Throws `DocumentRefused(.tooManyAttributes)` when a start tag in `bytes` has more than
    /// `maxAttributes` attributes, `DocumentRefused(.tooManyNamespaces)` when its namespace
    /// work passes `maxNamespaceWork`.
    public static func check(_ bytes: [UInt8]) throws(DocumentRefused) {
        let found = measure(bytes, attributeLimit: maxAttributes, namespaceWorkLimit: maxNamespaceWork)
        if found.maxAttributes > maxAttributes {
            throw DocumentRefused(.tooManyAttributes(limit: maxAttributes))
        }
        if found.namespaceWork > maxNamespaceWork {
            throw DocumentRefused(.tooManyNamespaces(limit: maxNamespaceWork))
        }
    }
}
