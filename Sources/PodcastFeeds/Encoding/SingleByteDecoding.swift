/// The Latin-1 family converted to UTF-8 by a table, with glibc iconv's mapping byte for byte
/// (checked against iconv for all 256 bytes in `SingleByteDecodingTests`): `ISO-8859-1` maps
/// every byte to the code point of the same number; `WINDOWS-1252` maps 0x80–0x9F to its
/// punctuation and letters and its five undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) to
/// U+FFFD; `US-ASCII` maps every byte above 0x7F to U+FFFD (iconv reports those as invalid and
/// `DocumentDecoder.transcode` writes U+FFFD).
///
/// Why not iconv: these are the encodings undeclared and mislabelled feeds fall back to, and for
/// a small document opening, converting through UCS-4 and resetting a descriptor cost several
/// times the conversion itself.
struct SingleByteDecoding {
    private enum Kind { case latin1, windows1252, ascii }
    private let kind: Kind

    /// `nil` for any name but the three canonical ones (`DocumentDecoder.canonical`).
    init?(canonicalName: String) {
        switch canonicalName {
        case "ISO-8859-1": kind = .latin1
        case "WINDOWS-1252": kind = .windows1252
        case "US-ASCII": kind = .ascii
        default: return nil
        }
    }

    /// The UTF-8 for `input`; never fails (every byte has a mapping or U+FFFD).
    func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let base = input.baseAddress, !input.isEmpty else { return [] }
        let n = input.count
        // Each byte above 0x7F becomes two or three bytes: size the output exactly for the
        // common two, with room for a third per high byte in the windows-1252 and ASCII cases.
        var high = 0
        var i = 0
        while i + 8 <= n {
            high += (UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080).nonzeroBitCount
            i += 8
        }
        while i < n {
            if input[i] >= 0x80 { high += 1 }
            i += 1
        }
        if high == 0 { return Array(input) }
        let capacity = n + high * (kind == .latin1 ? 1 : 2)
        let kind = self.kind
        return [UInt8](unsafeUninitializedCapacity: capacity) { out, count in
            var o = 0
            for byte in input {
                if byte < 0x80 {
                    out[o] = byte
                    o += 1
                    continue
                }
                var scalar = UInt32(byte)
                switch kind {
                case .latin1: break
                case .windows1252:
                    scalar = HTMLText.windows1252(scalar)
                    if scalar >= 0x80 && scalar <= 0x9F { scalar = 0xFFFD }
                case .ascii: scalar = 0xFFFD
                }
                if scalar < 0x800 {
                    out[o] = UInt8(0xC0 | (scalar >> 6))
                    out[o + 1] = UInt8(0x80 | (scalar & 0x3F))
                    o += 2
                } else {
                    out[o] = UInt8(0xE0 | (scalar >> 12))
                    out[o + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                    out[o + 2] = UInt8(0x80 | (scalar & 0x3F))
                    o += 3
                }
            }
            count = o
        }
    }
}
