#if canImport(Glibc)
import Glibc
#endif

/// Byte-level text helpers for the parser's hot path. Foundation's `trimmingCharacters(in:)`
/// goes through `NSString` on Linux and cost more than libxml2's whole parse.
extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, CR, LF, FF, VT).
    /// U+00A0 and other Unicode spaces are kept: in feeds they are content.
    var trimmedASCII: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !isASCIISpace($0) }) else { return "" }
        let last = utf8.lastIndex(where: { !isASCIISpace($0) })!
        if first == utf8.startIndex && utf8.index(after: last) == utf8.endIndex { return self }
        return String(self[first...last])
    }
}

@inline(__always)
func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
}

/// True when `bytes` contains `byte` (glibc `memchr`).
func containsByte(_ bytes: [UInt8], _ byte: UInt8) -> Bool {
    bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress, raw.count > 0 else { return false }
        return memchr(base, Int32(byte), raw.count) != nil
    }
}
