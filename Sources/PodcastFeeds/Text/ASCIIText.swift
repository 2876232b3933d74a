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

/// Byte-level readers for short ASCII values (numbers, keywords) that spare making a String.
enum ASCIIBytes {
    /// `bytes` without leading and trailing ASCII whitespace, or `nil` when any byte is not ASCII.
    static func trimmedIfASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        for byte in bytes where byte >= 0x80 { return nil }
        var lower = 0
        var upper = bytes.count
        while lower < upper, isASCIISpace(bytes[lower]) { lower += 1 }
        while upper > lower, isASCIISpace(bytes[upper - 1]) { upper -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[lower..<upper])
    }

    /// True when `bytes`, ASCII-lower-cased, equal `word` (which must be lower-case ASCII).
    static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let letters = word.utf8Start
        for index in 0..<bytes.count {
            var byte = bytes[index]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
            if byte != letters[index] { return false }
        }
        return true
    }

    /// The decimal integer `bytes` spell, as `Int(String)` reads it: an optional `+` or `-`, then
    /// one or more digits, nothing else; `nil` on anything else or on overflow.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = next
            index += 1
        }
        return value
    }
}
