import Foundation

/// How a feed location is read: over HTTP(S), from a local file, or not at all.
package enum FetchTarget: Equatable {
    case http
    case file(path: String)
    case invalid(reason: String)

    package init(_ raw: String) {
        // The common case without Foundation's trimming and lowercasing (about 70,000
        // instructions per fetch): a stored URL starts with its scheme.
        if FetchTarget.hasHTTPScheme(raw.utf8) {
            self = .http
            return
        }
        let url = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = url.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            self = .http
        } else if lower.hasPrefix("file:") {
            guard let parsed = URL(string: url), parsed.isFileURL else {
                self = .invalid(reason: "malformed file URL")
                return
            }
            if let host = parsed.host, !host.isEmpty, host != "localhost" {
                self = .invalid(reason: "file URL on another host (\(host))")
                return
            }
            let path = parsed.path
            self = path.isEmpty ? .invalid(reason: "file URL without a path") : .file(path: path)
        } else if let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") {
            self = .invalid(reason: "unsupported scheme \"\(url[..<colon])\"")
        } else if url.isEmpty {
            self = .invalid(reason: "empty URL")
        } else {
            self = .file(path: url)
        }
    }

    // `http://` or `https://` at the very start, in any case.
    private static func hasHTTPScheme(_ bytes: String.UTF8View) -> Bool {
        var iterator = bytes.makeIterator()
        for expected in "http".utf8 {
            guard let byte = iterator.next(), byte | 0x20 == expected else { return false }
        }
        guard var byte = iterator.next() else { return false }
        if byte | 0x20 == UInt8(ascii: "s") {
            guard let next = iterator.next() else { return false }
            byte = next
        }
        return byte == UInt8(ascii: ":") && iterator.next() == UInt8(ascii: "/") && iterator.next() == UInt8(ascii: "/")
    }
}
