import CLibxml2

#if canImport(Glibc)
import Glibc
#endif

/// Rewrites entity references that XML does not define, before libxml2 sees the document, so
/// that element text and attribute values come out the way a browser would show them:
/// - an HTML named entity (`&nbsp;`, `&eacute;`) becomes the numeric reference of its character;
/// - an unknown named entity (`&doesnotexist;`) and a bare `&` (`?a=1&b=2`) become `&amp;`, so
///   the text is kept literally instead of being dropped by libxml2's recovery.
///
/// CDATA sections, comments, processing instructions and the DOCTYPE are left alone. Because no
/// declared entity is ever referenced after this pass, entity-expansion attacks ("billion laughs")
/// have nothing to expand. Most documents need no change and are returned without a copy.
struct EntityRepair {
    var htmlEntities = 0
    var unknownEntities: [String] = []
    var bareAmpersands = 0
    var sawDoctype = false

    var changed: Bool { htmlEntities + unknownEntities.count + bareAmpersands > 0 }

    /// Returns the repaired document, or `nil` when nothing needed repair.
    mutating func repair(_ doc: [UInt8]) -> [UInt8]? {
        doc.withUnsafeBufferPointer { buffer -> [UInt8]? in
            guard needsRepair(buffer) else { return nil }
            return rewrite(buffer)
        }
    }

    /// Fast check: is there any `&` that does not start a plain XML reference?
    private func needsRepair(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = b.baseAddress else { return false }
        var offset = 0
        while offset < b.count {
            guard let hit = memchr(base + offset, Int32(UInt8(ascii: "&")), b.count - offset) else { return false }
            let index = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            // The usual references (`&lt;` `&gt;` `&amp;`, escaped HTML show notes) by one load.
            if b.count - index >= 5 {
                let word = UnsafeRawPointer(hit).loadUnaligned(as: UInt32.self)
                if word == Self.lessThan || word == Self.greaterThan {
                    offset = index + 4
                    continue
                }
                if word == Self.ampersand && b[index + 4] == UInt8(ascii: ";") {
                    offset = index + 5
                    continue
                }
            }
            if case .xml(let length) = Self.classify(b, index) {
                offset = index + length
            } else {
                return true
            }
        }
        return false
    }

    // `&lt;`, `&gt;` and `&amp` as 32-bit words loaded from memory (little-endian: first byte lowest).
    static let lessThan: UInt32 = 0x3B74_6C26
    static let greaterThan: UInt32 = 0x3B74_6726
    static let ampersand: UInt32 = 0x706D_6126

    enum Reference {
        case xml(length: Int)
        case html(length: Int, scalar: UInt32)
        case unknown(name: String)
        case bare
    }

    static func classify(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Reference {
        var j = i + 1
        let n = b.count
        if j < n, b[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < n && (b[j] == UInt8(ascii: "x") || b[j] == UInt8(ascii: "X"))
            if hex { j += 1 }
            let start = j
            while j < n, j - start < 10, isDigit(b[j]) || (hex && isHexLetter(b[j])) { j += 1 }
            if j > start, j < n, b[j] == UInt8(ascii: ";") { return .xml(length: j + 1 - i) }
            return .bare
        }
        let start = j
        while j < n, j - start < 32, isNameByte(b[j]) { j += 1 }
        guard j > start, j < n, b[j] == UInt8(ascii: ";") else { return .bare }
        let name = UnsafeBufferPointer(rebasing: b[start..<j])
        switch name.count {
        case 2 where (name[0] == UInt8(ascii: "l") || name[0] == UInt8(ascii: "g")) && name[1] == UInt8(ascii: "t"):
            return .xml(length: j + 1 - i)
        case 3 where name.elementsEqual("amp".utf8):
            return .xml(length: j + 1 - i)
        case 4 where name.elementsEqual("quot".utf8) || name.elementsEqual("apos".utf8):
            return .xml(length: j + 1 - i)
        default:
            break
        }
        var cName = [UInt8](name)
        cName.append(0)
        if let entity = htmlEntityLookup(cName) {
            return .html(length: j + 1 - i, scalar: UInt32(entity.pointee.value))
        }
        return .unknown(name: String(decoding: name, as: UTF8.self))
    }

    private mutating func rewrite(_ b: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        var i = 0
        let n = b.count
        let amp = Array("&amp;".utf8)
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: "<") {
                if Self.hasPrefix(b, i, "<![CDATA[") {
                    i = Self.find(b, "]]>", from: i + 9).map { $0 + 3 } ?? n
                } else if Self.hasPrefix(b, i, "<!--") {
                    i = Self.find(b, "-->", from: i + 4).map { $0 + 3 } ?? n
                } else if Self.hasPrefix(b, i, "<?") {
                    i = Self.find(b, "?>", from: i + 2).map { $0 + 2 } ?? n
                } else if Self.hasPrefix(b, i, "<!DOCTYPE") {
                    sawDoctype = true
                    var depth = 0
                    var j = i + 9
                    while j < n {
                        if b[j] == UInt8(ascii: "[") { depth += 1 }
                        if b[j] == UInt8(ascii: "]") { depth -= 1 }
                        if b[j] == UInt8(ascii: ">") && depth <= 0 { break }
                        j += 1
                    }
                    i = j + 1
                } else {
                    i += 1
                }
                continue
            }
            guard c == UInt8(ascii: "&") else {
                i += 1
                continue
            }
            switch Self.classify(b, i) {
            case .xml(let length):
                i += length
            case .html(let length, let scalar):
                if out.isEmpty { out.reserveCapacity(n + 64) }
                out.append(contentsOf: b[copied..<i])
                out.append(contentsOf: Array("&#\(scalar);".utf8))
                i += length
                copied = i
                htmlEntities += 1
            case .unknown(let name):
                if out.isEmpty { out.reserveCapacity(n + 64) }
                out.append(contentsOf: b[copied..<i])
                out.append(contentsOf: amp)
                i += 1
                copied = i
                if unknownEntities.count < 20 { unknownEntities.append(name) }
            case .bare:
                if out.isEmpty { out.reserveCapacity(n + 64) }
                out.append(contentsOf: b[copied..<i])
                out.append(contentsOf: amp)
                i += 1
                copied = i
                bareAmpersands += 1
            }
        }
        guard changed else { return nil }
        out.append(contentsOf: b[copied..<n])
        return out
    }

    private static func hasPrefix(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ s: StaticString) -> Bool {
        let count = s.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        return memcmp(b.baseAddress! + i, s.utf8Start, count) == 0
    }

    private static func find(_ b: UnsafeBufferPointer<UInt8>, _ s: StaticString, from: Int) -> Int? {
        let count = s.utf8CodeUnitCount
        var offset = from
        let first = Int32(s.utf8Start.pointee)
        while offset + count <= b.count {
            guard let hit = memchr(b.baseAddress! + offset, first, b.count - offset) else { return nil }
            let index = UnsafeRawPointer(hit) - UnsafeRawPointer(b.baseAddress!)
            if index + count <= b.count, memcmp(b.baseAddress! + index, s.utf8Start, count) == 0 { return index }
            offset = index + 1
        }
        return nil
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    private static func isHexLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 97 && (c | 0x20) <= 102 }
    private static func isNameByte(_ c: UInt8) -> Bool {
        isDigit(c) || ((c | 0x20) >= 97 && (c | 0x20) <= 122)
    }
}
