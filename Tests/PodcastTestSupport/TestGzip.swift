/// gzip (RFC 1952) writers for the loopback server, so tests need no zlib: one emits stored
/// (uncompressed) deflate blocks, the other a highly compressible "bomb" using fixed-Huffman
/// back-references (RFC 1951 §3.2.6).
package enum TestGzip {
    /// `data` wrapped as a valid gzip member with stored deflate blocks.
    package static func stored(_ data: [UInt8]) -> [UInt8] {
        var out = header
        var offset = 0
        repeat {
            let n = min(65_535, data.count - offset)
            let final = offset + n == data.count
            out.append(final ? 1 : 0)  // BFINAL, BTYPE=00, then padding to the byte boundary
            out += le16(UInt16(n)) + le16(~UInt16(n))
            out += data[offset..<offset + n]
            offset += n
        } while offset < data.count
        out += le32(crc32(data)) + le32(UInt32(truncatingIfNeeded: data.count))
        return out
    }

    /// A gzip member that inflates to `1 + 258 * runs` bytes of `"a"` while being about 13 bits
    /// per 258 output bytes on the wire.
    package static func bomb(runs: Int) -> (compressed: [UInt8], inflatedSize: Int) {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE=01, fixed Huffman
        bits.writeCode(0x30 + 0x61, length: 8)  // literal 'a'
        for _ in 0..<runs {
            bits.writeCode(0b1100_0101, length: 8)  // length symbol 285 = 258
            bits.writeCode(0, length: 5)  // distance symbol 0 = 1
        }
        bits.writeCode(0, length: 7)  // end of block (256)
        let size = 1 + 258 * runs
        var crc = Crc32()
        crc.update([UInt8](repeating: 0x61, count: size))
        return (header + bits.bytes + le32(crc.value) + le32(UInt32(truncatingIfNeeded: size)), size)
    }

    package static let header: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]

    package static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
    package static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }

    package static func crc32(_ data: [UInt8]) -> UInt32 {
        var c = Crc32()
        c.update(data)
        return c.value
    }

    /// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as gzip uses.
    struct Crc32 {
        private var crc: UInt32 = 0xffff_ffff
        package static let table: [UInt32] = (0..<256).map { n -> UInt32 in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
            return c
        }
        package mutating func update(_ data: [UInt8]) {
            for b in data { crc = Crc32.table[Int((crc ^ UInt32(b)) & 0xff)] ^ (crc >> 8) }
        }
        package var value: UInt32 { crc ^ 0xffff_ffff }
    }

    /// Deflate's bit order: fields least-significant bit first, Huffman codes most-significant first.
    struct BitWriter {
        package var bytes: [UInt8] = []
        private var used = 0
        package mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count { put(value >> i & 1) }
        }
        package mutating func writeCode(_ code: UInt32, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { put(code >> i & 1) }
        }
        private mutating func put(_ bit: UInt32) {
            if used == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(bit) << used
            used = (used + 1) % 8
        }
    }
}
