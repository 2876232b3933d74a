import Foundation

/// How a feed location is read: over HTTP(S), from a local file, or not at all.
enum FetchTarget: Equatable {
    case http
    case file(path: String)
    case invalid(reason: String)

    init(_ raw: String) {
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
}
