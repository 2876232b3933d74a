import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns the raw bytes of an XML document into UTF-8 for libxml2, choosing the encoding from, in
/// order: the byte order mark, the XML declaration, the HTTP `charset` (a transport hint), UTF-8.
///
/// Deliberate leniencies (each one leaves a warning; the undeclared and UTF-8-labelled cases also
/// mark the document as not well-formed):
/// - A Latin-1 family declaration (`ISO-8859-1`, `windows-1252`, `US-ASCII`) over bytes that are
///   valid UTF-8 with non-ASCII content is read as UTF-8: the label is the common mistake.
/// - Mixed encodings, repaired per run (`repairedEncoding`): when a Latin-1 family, UTF-8 or no
///   declaration covers bytes that are mostly UTF-8 (at least as many valid multi-byte sequences
///   as stray bytes) with some bytes that are not, each valid UTF-8 sequence is read as UTF-8 and
///   each stray byte as windows-1252 (so "Brøndby" stays "Brøndby" beside one stray `0xE9`).
/// - Otherwise undeclared bytes that are not UTF-8 are read as windows-1252, and UTF-8-labelled
///   bytes that are mostly not UTF-8 get U+FFFD for each bad byte.
/// - An unknown encoding name is reported and the bytes are read as if undeclared.
struct DocumentDecoder {
    /// The document as UTF-8, without a byte order mark.
    var utf8: [UInt8]
    /// The encoding the bytes were read as (canonical upper-case name, e.g. `UTF-8`, `UTF-16LE`).
    var encoding: String
    var warnings: [String] = []
    var wellFormed = true
    /// True when the text was repaired per run (UTF-8 runs as UTF-8, stray bytes as windows-1252).
    var repairedEncoding = false
    // Set by the buffer pass when the output is the input itself from this offset (past a
    // UTF-8 BOM): `init(bytes:)` then shares the caller's array instead of copying it.
    private var passthroughFrom: Int?

    /// Decodes `bytes`. When they already are UTF-8 (the common case) `utf8` shares their storage:
    /// no copy of the document is made.
    init(bytes: [UInt8], httpContentType: String?) {
        self = bytes.withUnsafeBufferPointer { DocumentDecoder(buffer: $0, httpContentType: httpContentType) }
        if let offset = passthroughFrom {
            utf8 = offset == 0 ? bytes : Array(bytes[offset...])
            passthroughFrom = nil
        }
    }

    private init(buffer bytes: UnsafeBufferPointer<UInt8>, httpContentType: String?) {
        utf8 = []
        encoding = "UTF-8"
        let mark = Self.byteOrderMark(bytes)
        // Only a UTF-8 mark is cut here; UTF-16/32 converters read their own.
        let body = mark.length > 0 ? UnsafeBufferPointer(rebasing: bytes[mark.length...]) : bytes
        let declared = mark.sniffed == nil && mark.fromBOM == nil ? Self.declaredEncoding(body) : nil
        let (choice, explicit) = choose(
            fromBOM: mark.fromBOM, sniffed: mark.sniffed, declared: declared,
            transport: Self.charset(fromContentType: httpContentType))
        decode(body, as: choice, explicit: explicit, bomLength: mark.length)
    }

    /// The byte order mark (and how many bytes to cut: a UTF-8 mark's three), or UTF-16/32
    /// without one, shown by the zero bytes around `<`. Only the first four bytes are read.
    private static func byteOrderMark(_ body: UnsafeBufferPointer<UInt8>)
        -> (fromBOM: String?, length: Int, sniffed: String?)
    {
        // Compared as values, since `starts(with:)` over array literals built an array per check.
        let b0 = body.count > 0 ? body[0] : 0
        let b1 = body.count > 1 ? body[1] : 0
        let b2 = body.count > 2 ? body[2] : 0
        let b3 = body.count > 3 ? body[3] : 0
        if body.count >= 3, b0 == 0xEF, b1 == 0xBB, b2 == 0xBF { return ("UTF-8", 3, nil) }
        if body.count >= 4, b0 == 0x00, b1 == 0x00, b2 == 0xFE, b3 == 0xFF { return ("UTF-32BE", 0, nil) }
        if body.count >= 4, b0 == 0xFF, b1 == 0xFE, b2 == 0x00, b3 == 0x00 { return ("UTF-32LE", 0, nil) }
        if body.count >= 2, b0 == 0xFE, b1 == 0xFF { return ("UTF-16BE", 0, nil) }
        if body.count >= 2, b0 == 0xFF, b1 == 0xFE { return ("UTF-16LE", 0, nil) }
        if body.count >= 4, b0 == 0x00, b1 == 0x00, b2 == 0x00, b3 == 0x3C { return (nil, 0, "UTF-32BE") }
        if body.count >= 4, b0 == 0x3C, b1 == 0x00, b2 == 0x00, b3 == 0x00 { return (nil, 0, "UTF-32LE") }
        if body.count >= 2, b0 == 0x00, b1 == 0x3C { return (nil, 0, "UTF-16BE") }
        if body.count >= 2, b0 == 0x3C, b1 == 0x00 { return (nil, 0, "UTF-16LE") }
        return (nil, 0, nil)
    }

    // The encoding to read as, and whether anything named it (else UTF-8 by default).
    private mutating func choose(fromBOM: String?, sniffed: String?, declared: String?, transport: String?)
        -> (choice: String, explicit: Bool)
    {
        var choice: String
        var explicit = true
        if let bom = fromBOM {
            choice = bom
        } else if let sniffed {
            choice = sniffed
        } else if let declared {
            choice = Self.canonical(declared)
            if choice.hasPrefix("UTF-16") || choice.hasPrefix("UTF-32") {
                // A 16/32-bit label over 8-bit bytes cannot be right.
                warnings.append("declared encoding \(declared) but the bytes are 8-bit; read as UTF-8")
                choice = "UTF-8"
            }
        } else if let transport {
            choice = Self.canonical(transport)
        } else {
            choice = "UTF-8"
            explicit = false
        }
        return (choice, explicit)
    }

    // Decodes `body` as `choice`; past a byte that is not UTF-8, by the rules above.
    private mutating func decode(_ body: UnsafeBufferPointer<UInt8>, as choice: String, explicit: Bool, bomLength: Int)
    {
        // One pass serves every branch below: it validates (most of the cost for a UTF-8 feed) and,
        // only past a byte that is not UTF-8, counts what the mixed-encoding rule needs.
        let utf8Family = choice == "UTF-8" || Self.latin1Family.contains(choice)
        let survey = utf8Family ? UTF8Check.survey(body) : nil
        let isValidUTF8 = utf8Family && survey?.firstInvalid == nil
        if let survey, let firstInvalid = survey.firstInvalid, survey.mostlyUTF8 {
            utf8 = UTF8Check.repairMixed(body, firstInvalid: firstInvalid)
            encoding = "UTF-8"
            repairedEncoding = true
            // A Latin-1 label makes every byte legal; a UTF-8 label or none does not.
            if !Self.latin1Family.contains(choice) { wellFormed = false }
            let label = explicit ? "labelled \(choice)" : "undeclared"
            warnings.append(
                "mixed encodings (\(label)): read the UTF-8 runs as UTF-8 and \(survey.strayBytes) stray byte\(survey.strayBytes == 1 ? "" : "s") as windows-1252"
            )
            return
        }
        if choice == "UTF-8" {
            if isValidUTF8 {
                utf8 = []
                passthroughFrom = bomLength
                encoding = "UTF-8"
            } else if explicit {
                utf8 = UTF8Check.repaired(body)
                encoding = "UTF-8"
                wellFormed = false
                warnings.append("the document is labelled UTF-8 but has invalid byte sequences; replaced with U+FFFD")
            } else {
                utf8 = Self.transcode(body, from: "WINDOWS-1252") ?? UTF8Check.repaired(body)
                encoding = "WINDOWS-1252"
                wellFormed = false
                warnings.append("no encoding declared and the bytes are not UTF-8; read as windows-1252")
            }
            return
        }
        if Self.latin1Family.contains(choice), isValidUTF8 {
            utf8 = []
            passthroughFrom = bomLength
            if body.contains(where: { $0 >= 0x80 }) {
                encoding = "UTF-8"
                warnings.append("declared encoding \(choice) but the content is valid UTF-8; read as UTF-8")
            } else {
                encoding = choice
            }
            return
        }
        if let converted = Self.transcode(body, from: choice) {
            utf8 = converted
            encoding = choice
            return
        }
        // Unknown encoding name: report it and read the bytes as if nothing was declared.
        wellFormed = false
        warnings.append("unsupported encoding \"\(choice)\"; read as UTF-8 or windows-1252")
        if UTF8Check.isValid(body) {
            utf8 = []
            passthroughFrom = bomLength
            encoding = "UTF-8"
        } else {
            utf8 = Self.transcode(body, from: "WINDOWS-1252") ?? UTF8Check.repaired(body)
            encoding = "WINDOWS-1252"
        }
    }

    static let latin1Family: Set<String> = ["ISO-8859-1", "WINDOWS-1252", "US-ASCII"]

    /// Maps common aliases to one spelling so comparisons and the reported name are stable.
    static func canonical(_ name: String) -> String {
        let upper = name.trimmedASCII.uppercased()
        switch upper {
        case "UTF8", "UTF-8", "UNICODE-1-1-UTF-8": return "UTF-8"
        case "LATIN1", "LATIN-1", "L1", "ISO8859-1", "ISO_8859-1", "ISO-8859-1", "ISO_8859-1:1987", "8859-1":
            return "ISO-8859-1"
        case "CP1252", "WINDOWS1252", "WINDOWS-1252", "X-CP1252": return "WINDOWS-1252"
        case "ASCII", "US-ASCII", "ANSI_X3.4-1968": return "US-ASCII"
        case "UTF-16", "UTF16": return "UTF-16"
        default: return upper
        }
    }

    /// The `encoding="..."` pseudo-attribute of an XML declaration at the very start, if any.
    /// Byte-level: it runs once per document, and Foundation's string search cost more than
    /// parsing a small feed.
    static func declaredEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.starts(with: "<?xml".utf8) else { return nil }
        let limit = min(bytes.count, 512)
        var end = 0
        while end < limit, bytes[end] != UInt8(ascii: ">") { end += 1 }
        guard end < limit else { return nil }
        // "encoding", found by its first byte and then compared (a generic `elementsEqual` at every
        // position cost more than the rest of the declaration).
        let keyword: StaticString = "encoding"
        let length = keyword.utf8CodeUnitCount
        guard let base = bytes.baseAddress else { return nil }
        var i = 0
        while true {
            guard i + length <= end else { return nil }
            if bytes[i] == UInt8(ascii: "e"), memcmp(base + i, keyword.utf8Start, length) == 0 { break }
            i += 1
        }
        i += length
        func skipSpace() {
            while i < end, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        }
        skipSpace()
        guard i < end, bytes[i] == UInt8(ascii: "=") else { return nil }
        i += 1
        skipSpace()
        guard i < end, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[i]
        i += 1
        let start = i
        while i < end, bytes[i] != quote { i += 1 }
        guard i > start else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    }

    /// The `charset` parameter of a `Content-Type` header value.
    static func charset(fromContentType contentType: String?) -> String? {
        guard let contentType else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, String(pair[0]).trimmedASCII.lowercased() == "charset" else { continue }
            let value = String(pair[1]).trimmedASCII.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Converts to UTF-8; invalid input sequences become U+FFFD. `nil` when the encoding is
    /// unknown to iconv. The Latin-1 family (`ISO-8859-1`, `WINDOWS-1252`, `US-ASCII`, the
    /// canonical names) is converted by a table (`SingleByteDecoding`) with glibc's mapping;
    /// everything else goes through glibc's iconv.
    static func transcode(_ input: UnsafeBufferPointer<UInt8>, from encoding: String) -> [UInt8]? {
        if let table = SingleByteDecoding(canonicalName: encoding) { return table.decode(input) }
        return iconvTranscode(input, from: encoding)
    }

    /// Converts with glibc's iconv; invalid input sequences become U+FFFD. `nil` when the encoding
    /// is unknown to iconv.
    static func iconvTranscode(_ input: UnsafeBufferPointer<UInt8>, from encoding: String) -> [UInt8]? {
        guard let converter = ConverterPool.take(encoding) else { return nil }
        defer { ConverterPool.giveBack(converter, encoding: encoding) }
        let handle = converter.handle
        var output = [UInt8](repeating: 0, count: input.count * 2 + 16)
        var written = 0
        guard var inPointer = input.baseAddress.map({ UnsafeMutablePointer(mutating: $0) }) else { return [] }
        var inLeft = input.count
        while inLeft > 0 {
            if output.count - written < 16 { output.append(contentsOf: repeatElement(0, count: output.count)) }
            var outLeft = output.count - written
            let result: Int = output.withUnsafeMutableBufferPointer { out in
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(out.baseAddress! + written)
                    .assumingMemoryBound(to: CChar.self)
                var inCursor: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inPointer).assumingMemoryBound(
                    to: CChar.self)
                let r = iconv(handle, &inCursor, &inLeft, &outPointer, &outLeft)
                inPointer = UnsafeMutableRawPointer(inCursor!).assumingMemoryBound(to: UInt8.self)
                written = UnsafeMutableRawPointer(outPointer!) - UnsafeMutableRawPointer(out.baseAddress!)
                return r
            }
            if result == -1 {
                if errno == E2BIG { continue }
                // EILSEQ / EINVAL: skip one byte, emit U+FFFD.
                if output.count - written < 3 { output.append(contentsOf: repeatElement(0, count: 64)) }
                output[written] = 0xEF
                output[written + 1] = 0xBF
                output[written + 2] = 0xBD
                written += 3
                inPointer += 1
                inLeft -= 1
            }
        }
        output.removeSubrange(written...)
        return output
    }
}

/// UTF-8 validation with an ASCII fast path.
enum UTF8Check {
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstInvalid(bytes, from: 0) == nil
    }

    /// The length of the valid UTF-8 sequence at `i` (1 for ASCII), or 0 when the byte there
    /// starts no valid sequence (a stray continuation byte, an overlong form, a surrogate, a
    /// scalar past U+10FFFF, or a sequence cut short).
    @inline(__always)
    private static func sequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let c = b[i]
        if c < 0x80 { return 1 }
        let length: Int
        var minimum: UInt32
        var scalar: UInt32
        if c & 0xE0 == 0xC0 {
            length = 2
            minimum = 0x80
            scalar = UInt32(c & 0x1F)
        } else if c & 0xF0 == 0xE0 {
            length = 3
            minimum = 0x800
            scalar = UInt32(c & 0x0F)
        } else if c & 0xF8 == 0xF0 {
            length = 4
            minimum = 0x10000
            scalar = UInt32(c & 0x07)
        } else {
            return 0
        }
        guard i + length <= b.count else { return 0 }
        for k in 1..<length {
            let cc = b[i + k]
            guard cc & 0xC0 == 0x80 else { return 0 }
            scalar = scalar << 6 | UInt32(cc & 0x3F)
        }
        if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return 0 }
        return length
    }

    /// Index of the first byte that starts an invalid sequence at or after `from`.
    static func firstInvalid(_ b: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        let n = b.count
        guard let base = b.baseAddress else { return nil }
        while i < n {
            // Eight ASCII bytes at a time.
            if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let length = sequenceLength(b, at: i)
            if length == 0 { return i }
            i += length
        }
        return nil
    }

    /// What one pass over a document found: where the first byte that is not UTF-8 is, how many
    /// such stray bytes there are, and whether the text is mostly UTF-8 (at least one stray byte
    /// and at least as many valid multi-byte sequences as stray bytes).
    struct Survey {
        var firstInvalid: Int?
        /// Stray bytes counted; when `mostlyUTF8` is false the count may have stopped early.
        var strayBytes = 0
        var mostlyUTF8 = false
    }

    /// Validates and, past the first stray byte, counts for the mixed-encoding rule, in one
    /// pass (ASCII eight bytes at a time, each multi-byte sequence checked once). The count stops
    /// as soon as the rest could no longer make the text mostly UTF-8 (a Latin-1 document does
    /// not pay a full count). Valid UTF-8 costs what `firstInvalid` costs.
    static func survey(_ b: UnsafeBufferPointer<UInt8>) -> Survey {
        var result = Survey()
        guard let base = b.baseAddress else { return result }
        let n = b.count
        var multibyte = 0
        var i = 0
        while i < n {
            if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let length = sequenceLength(b, at: i)
            if length > 1 {
                multibyte += 1
                i += length
            } else if length == 1 {
                i += 1
            } else {
                if result.firstInvalid == nil { result.firstInvalid = i }
                result.strayBytes += 1
                i += 1
                // At most one multi-byte sequence per two bytes remains.
                if result.strayBytes > multibyte + (n - i) / 2 { return result }
            }
        }
        result.mostlyUTF8 = result.strayBytes > 0 && multibyte >= result.strayBytes
        return result
    }

    /// The per-run repair of mostly-UTF-8 text with stray bytes: valid UTF-8 sequences copied,
    /// every other byte read as windows-1252 (its five undefined bytes as U+FFFD). `nil` when the
    /// text is not mostly UTF-8: fewer valid multi-byte sequences than stray bytes, or none.
    /// `firstInvalid`, when given, is where a validation pass stopped; the result is the same.
    static func mixedRepair(
        _ b: UnsafeBufferPointer<UInt8>, firstInvalid known: Int? = nil
    ) -> (bytes: [UInt8], strayBytes: Int)? {
        let found = survey(b)
        guard found.mostlyUTF8, let first = found.firstInvalid else { return nil }
        return (repairMixed(b, firstInvalid: first), found.strayBytes)
    }

    /// The repaired bytes, once `survey` has found the text mostly UTF-8; `firstInvalid` is the
    /// survey's (the prefix before it is copied as it is).
    static func repairMixed(_ b: UnsafeBufferPointer<UInt8>, firstInvalid first: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 16)
        var i = 0
        var next: Int? = first
        while let bad = next {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i..<bad]))
            var scalar = HTMLText.windows1252(UInt32(b[bad]))
            if (0x80...0x9F).contains(scalar) { scalar = 0xFFFD }
            HTMLText.appendUTF8(scalar, to: &out)
            i = bad + 1
            next = firstInvalid(b, from: i)
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[i...]))
        return out
    }

    /// A copy with every invalid sequence replaced by U+FFFD (one per bad byte).
    static func repaired(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 16)
        var i = 0
        while let bad = firstInvalid(b, from: i) {
            out.append(contentsOf: b[i..<bad])
            out.append(contentsOf: [0xEF, 0xBF, 0xBD])
            i = bad + 1
        }
        out.append(contentsOf: b[i...])
        return out
    }
}
