import Foundation

/// Turns what a user typed for a feed into the absolute URL string that is stored.
public enum FeedLocation {
    /// Why a feed location was refused.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was typed.
        public var input: String
        /// Why it is not a feed location.
        public var reason: String
        /// `'INPUT': REASON`.
        public var description: String { "'\(input)': \(reason)" }
    }

    /// Normalises `input`:
    /// - `http://` and `https://` URLs (scheme case-insensitive) are kept, trimmed, with the scheme
    ///   and host lower-cased; they need a host.
    /// - `file://` URLs are kept (with an absolute path).
    /// - Anything else without `scheme://` is a path: `~/` expands to `home`, a relative path is
    ///   resolved against `currentDirectory`, `.`/`..` are removed, and the result is a
    ///   `file://` URL (spaces and the like percent-encoded).
    /// - Other schemes (`ftp://`...) throw `Invalid`.
    public static func normalize(
        _ input: String, currentDirectory: String = FileManager.default.currentDirectoryPath,
        home: String? = ProcessInfo.processInfo.environment["HOME"]
    ) throws(Invalid) -> String {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Invalid(input: input, reason: "empty feed location") }
        if let schemeEnd = text.range(of: "://"), isScheme(text[..<schemeEnd.lowerBound]) {
            let scheme = text[..<schemeEnd.lowerBound].lowercased()
            switch scheme {
            case "http", "https":
                guard var parts = URLComponents(string: text), let host = parts.host, !host.isEmpty else {
                    throw Invalid(input: input, reason: "not a valid \(scheme) URL (no host)")
                }
                parts.scheme = scheme
                parts.host = host.lowercased()
                guard let out = parts.string else { throw Invalid(input: input, reason: "not a valid URL") }
                return out
            case "file":
                guard let url = URL(string: text), url.isFileURL, url.path.hasPrefix("/") else {
                    throw Invalid(input: input, reason: "not a valid file:// URL (it needs an absolute path)")
                }
                return URL(fileURLWithPath: url.path).standardizedFileURL.absoluteString
            default:
                throw Invalid(input: input, reason: "unsupported URL scheme '\(scheme)' (use http, https, file or a path)")
            }
        }
        var path = text
        if path == "~" || path.hasPrefix("~/") {
            guard let home, !home.isEmpty else { throw Invalid(input: input, reason: "cannot expand '~': HOME is not set") }
            path = home + path.dropFirst()
        }
        if !path.hasPrefix("/") { path = currentDirectory + "/" + path }
        return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    // RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    private static func isScheme(_ s: Substring) -> Bool {
        guard let first = s.first, first.isASCII, first.isLetter else { return false }
        return s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
