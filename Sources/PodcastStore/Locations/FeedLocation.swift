import Foundation

/// The one normaliser of feed locations: turns what a user, an OPML file, a redirect or an
/// `itunes:new-feed-url` gave into the canonical URL string the store keys subscriptions by, so
/// that trivially different spellings of one feed are one subscription.
///
/// - `http://` and `https://` (scheme case-insensitive): conservatively normalised as RFC 3986
///   §6.2.2–6.2.3 allows: scheme and host lower-cased, the default port (80, 443) and the
///   fragment dropped, an empty path becomes `/`. User info, path, query and percent-encoding
///   are kept as given (servers may treat them case- or byte-sensitively). A host is required.
/// - `feed://`, `itpc://`, `pcast://` (podcast-app links) mean `http://`; `feed:https://...` is
///   the inner URL.
/// - `file:` URLs (`file:///p`, `file:/p`, `file://localhost/p`) and plain paths become one
///   `file://` URL: `~/` expands to `home`, a relative path resolves against
///   `currentDirectory`, `.` and `..` are removed, and characters such as spaces are
///   percent-encoded. So `./x.xml`, `/abs/x.xml` and `file:///abs/x.xml` are the same feed.
/// - A word followed by `:` but not `//` (`odd:name.xml`) is a relative path, not a scheme.
/// - Other schemes (`ftp://`...), `file://` on another host, blank input, white space inside a
///   URL: `Invalid`.
///
/// Pure apart from reading the file system (`URL(fileURLWithPath:)` marks directories).
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

    /// The canonical form of `input` (rules above). Throws `Invalid`.
    public static func normalize(
        _ input: String, currentDirectory: String = FileManager.default.currentDirectoryPath,
        home: String? = ProcessInfo.processInfo.environment["HOME"]
    ) throws(Invalid) -> String {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw Invalid(input: input, reason: "empty feed location") }
        guard let (scheme, rest) = splitScheme(text) else {
            return try path(text, input: input, currentDirectory: currentDirectory, home: home)
        }
        switch scheme {
        case "http", "https":
            return try http(scheme: scheme, rest, input: input)
        case "feed", "itpc", "pcast":
            if rest.hasPrefix("//") { return try http(scheme: "http", rest, input: input) }
            // feed:https://host/path
            guard let (inner, innerRest) = splitScheme(String(rest)), inner == "http" || inner == "https" else {
                throw Invalid(input: input, reason: "'\(scheme):' must be followed by // or an http(s) URL")
            }
            return try http(scheme: inner, innerRest, input: input)
        case "file":
            guard let url = URL(string: text), url.isFileURL else {
                throw Invalid(input: input, reason: "not a valid file:// URL")
            }
            if let host = url.host, !host.isEmpty, host.lowercased() != "localhost" {
                throw Invalid(input: input, reason: "a file:// URL on another host (\(host)) cannot be read")
            }
            guard url.path.hasPrefix("/") else {
                throw Invalid(input: input, reason: "not a valid file:// URL (it needs an absolute path)")
            }
            return URL(fileURLWithPath: url.path).standardizedFileURL.absoluteString
        default:
            throw Invalid(input: input, reason: "unsupported URL scheme '\(scheme)' (use http, https, file or a path)")
        }
    }

    // The lower-cased scheme and what follows its colon, when `text` starts with a URL scheme:
    // RFC 3986 `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, at least two characters (`C:` is a
    // drive, not a scheme), followed by `//` unless it is one of the schemes used without.
    private static func splitScheme(_ text: String) -> (String, Substring)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard name.count > 1, let first = name.first, first.isASCII, first.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") })
        else { return nil }
        let scheme = name.lowercased()
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") || ["file", "feed", "itpc", "pcast"].contains(scheme) else { return nil }
        return (scheme, rest)
    }

    // `rest` is what follows "scheme:".
    private static func http(scheme: String, _ rest: Substring, input: String) throws(Invalid) -> String {
        guard rest.hasPrefix("//") else { throw Invalid(input: input, reason: "expected \(scheme)://") }
        if rest.contains(where: { $0.isWhitespace || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } ?? false) }) {
            throw Invalid(
                input: input, reason: "white space or control characters in the URL (percent-encode them: %20)")
        }
        // RFC 3986 never allows these unescaped; refused like white space rather than guessed at.
        if let bad = rest.first(where: { "\"<>\\^`{|}".contains($0) }) {
            throw Invalid(input: input, reason: "the character '\(bad)' must be percent-encoded in a URL")
        }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterSlashes.endIndex
        let authority = afterSlashes[..<authorityEnd]
        var tail = afterSlashes[authorityEnd...]
        if let hash = tail.firstIndex(of: "#") { tail = tail[..<hash] }  // the fragment never reaches the server

        var userInfo = ""
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[...at])
            hostPort = authority[authority.index(after: at)...]
        }
        var host: Substring
        var port: Substring = ""
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else {
                throw Invalid(input: input, reason: "unclosed [ in the host")
            }
            host = hostPort[...close]
            let after = hostPort[hostPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw Invalid(input: input, reason: "unexpected text after the host")
                }
                port = after.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            port = hostPort[hostPort.index(after: colon)...]
        } else {
            host = hostPort
        }
        guard !host.isEmpty, host != "[]" else {
            throw Invalid(input: input, reason: "not a valid \(scheme) URL (no host)")
        }
        var portText = ""
        if !port.isEmpty {
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), number <= 65_535 else {
                throw Invalid(input: input, reason: "not a valid port '\(port)'")
            }
            let defaultPort = scheme == "http" ? 80 : 443
            if number != defaultPort { portText = ":\(number)" }
        }
        let pathAndQuery = tail.hasPrefix("/") ? String(tail) : "/" + tail
        let result = "\(scheme)://\(userInfo)\(host.lowercased())\(portText)\(pathAndQuery)"
        guard URLComponents(string: result) != nil else {
            throw Invalid(input: input, reason: "not a valid \(scheme) URL")
        }
        return result
    }

    private static func path(_ text: String, input: String, currentDirectory: String, home: String?) throws(Invalid)
        -> String
    {
        var path = text
        if path == "~" || path.hasPrefix("~/") {
            guard let home, !home.isEmpty else {
                throw Invalid(input: input, reason: "cannot expand '~': HOME is not set")
            }
            path = home + path.dropFirst()
        }
        if !path.hasPrefix("/") { path = currentDirectory + "/" + path }
        return URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }
}
