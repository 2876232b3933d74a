import PodcastEngine

extension OrderedJSON {
    /// `serialized` as UTF-8 bytes, written straight into a byte buffer: the same text (the
    /// tests compare them), several times faster for the web's large answers (`/api/feeds`
    /// over 2,000 feeds), because runs of characters that need no escape are copied whole
    /// instead of one scalar at a time.
    public var utf8Bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        writeBytes(into: &out)
        return out
    }

    private func writeBytes(into out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .int(let i): out += String(i).utf8
        case .number, .string:
            if case .string(let s) = self { JSONBytes.escape(s, into: &out) } else { out += serialized.utf8 }
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.writeBytes(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONBytes.escape(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.writeBytes(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

enum JSONBytes {
    // Plain printable ASCII other than `"` and `\` is copied in runs; everything else goes
    // through `OrderedJSON`'s own escaping (one scalar's worth), so the two never differ.
    static func escape(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b >= 0x20 && b < 0x7F && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                // One scalar (1-4 bytes) escaped the slow, exact way.
                var end = i + 1
                while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
                let scalar = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
                let quoted = OrderedJSON.string(scalar).serialized.utf8
                out.append(contentsOf: quoted.dropFirst().dropLast())
                i = end
                runStart = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
