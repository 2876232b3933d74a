#if canImport(Glibc)
import Glibc
#endif

/// Byte-level text helpers for the parser's hot path. Foundation's `trimmingCharacters(in:)`
/// goes through `NSString` on Linux and cost more than libxml2's whole parse.
extension String {
    /// The string without leading and trailing ASCII whitespace (space, tab, CR, LF, FF, VT).
    /// U+00A0 and other Unicode spaces are kept: in feeds they are content.
    var trimmedASCII: String {
        var copy = self
        return copy.withUTF8 { bytes -> String in
            var start = 0
            var end = bytes.count
            while start < end, isASCIISpace(bytes[start]) { start += 1 }
            while end > start, isASCIISpace(bytes[end - 1]) { end -= 1 }
            if start == 0 && end == bytes.count { return self }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
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
