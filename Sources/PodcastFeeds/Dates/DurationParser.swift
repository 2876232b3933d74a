/// Parses `itunes:duration` values into seconds.
///
/// Accepted shapes (surrounding whitespace ignored): `SS`, `MM:SS`, `H:MM:SS`, each optionally with a
/// fractional part after the last field (`01:02:03.500`). Fields need not have two digits and a
/// minutes field may exceed 59 when there is no hours field (`61:08` = 3668 s), as podcast apps
/// accept. Anything else (empty, letters, more than three fields, a sign) is "unknown".
public enum DurationParser {
    /// The duration in seconds, fraction kept (`"01:02:03.5"` → `3723.5`), or `nil` when the text is
    /// blank or not a duration. Pure function; callable from any thread.
    public static func parse(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { parse(bytes: $0) }
    }

    // Works on the string's own bytes: no array, no field list (at most three fields).
    static func parse(bytes all: UnsafeBufferPointer<UInt8>) -> Double? {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
        var lower = 0
        var upper = all.count
        while upper > lower, isSpace(all[upper - 1]) { upper -= 1 }
        while lower < upper, isSpace(all[lower]) { lower += 1 }
        if lower == upper { return nil }
        var fieldCount = 0
        var seconds = 0
        var current = 0
        var digits = 0
        var fraction = 0.0
        var index = lower
        while index < upper {
            let byte = all[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // Cap the field length so absurd input cannot overflow.
                guard digits < 9 else { return nil }
                current = current * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case UInt8(ascii: ":"):
                guard digits > 0, fieldCount < 2 else { return nil }
                seconds = seconds * 60 + current
                fieldCount += 1
                current = 0
                digits = 0
            case UInt8(ascii: "."), UInt8(ascii: ","):
                // A fraction is only allowed after the last field.
                guard digits > 0 else { return nil }
                var scale = 0.1
                var fractionDigits = 0
                index += 1
                while index < upper, all[index] >= UInt8(ascii: "0"), all[index] <= UInt8(ascii: "9") {
                    if fractionDigits < 9 { fraction += Double(all[index] - UInt8(ascii: "0")) * scale }
                    scale /= 10
                    fractionDigits += 1
                    index += 1
                }
                guard index == upper else { return nil }
                continue
            default:
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        seconds = seconds * 60 + current
        return Double(seconds) + fraction
    }

    static func trimASCIIWhitespace(_ bytes: inout [UInt8]) {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        var start = 0
        while start < bytes.count, isSpace(bytes[start]) { start += 1 }
        if start > 0 { bytes.removeFirst(start) }
    }
}
