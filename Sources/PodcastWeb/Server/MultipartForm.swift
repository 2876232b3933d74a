/// `multipart/form-data` bodies (RFC 7578), as the page's OPML upload sends them: only what
/// a form field needs (its name and bytes); parts without a name are ignored.
extension HTTPRequest {
    /// The fields of a `multipart/form-data` body by name (the first of a repeated name wins);
    /// empty for another content type or a body without the declared boundary.
    public var multipartFields: [String: [UInt8]] {
        guard contentType == "multipart/form-data", let header = header("content-type"),
            let range = header.range(of: "boundary=")
        else { return [:] }
        var boundary = String(header[range.upperBound...].prefix { $0 != ";" })
        if boundary.hasPrefix("\"") && boundary.hasSuffix("\"") && boundary.count >= 2 {
            boundary = String(boundary.dropFirst().dropLast())
        }
        guard !boundary.isEmpty else { return [:] }
        let delimiter = Array(("--" + boundary).utf8)
        var fields: [String: [UInt8]] = [:]
        var starts: [Int] = []
        var i = 0
        while let found = MultipartScan.find(delimiter, in: body, from: i) {
            starts.append(found)
            i = found + delimiter.count
        }
        for (a, b) in zip(starts, starts.dropFirst()) {
            var part = Array(body[(a + delimiter.count)..<b])
            if part.starts(with: [13, 10]) { part.removeFirst(2) }
            if part.count >= 2 && part.suffix(2) == [13, 10] { part.removeLast(2) }
            guard let split = MultipartScan.find([13, 10, 13, 10], in: part, from: 0) else { continue }
            let head = String(decoding: part[..<split], as: UTF8.self)
            guard let nameRange = head.range(of: "name=\"") else { continue }
            let name = String(head[nameRange.upperBound...].prefix { $0 != "\"" })
            if fields[name] == nil { fields[name] = Array(part[(split + 4)...]) }
        }
        return fields
    }
}

enum MultipartScan {
    // First index of `needle` in `haystack` at or after `start` (a naive scan: bodies are
    // bounded by HTTPLimits.maxBodyBytes and the delimiter is short).
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
            return nil
        }
        var i = start
        let first = needle[0]
        while i <= haystack.count - needle.count {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
