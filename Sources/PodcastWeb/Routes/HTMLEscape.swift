import PodcastFeeds

/// Escaping for text that goes into our HTML pages. Everything that came from a feed, a server
/// or a user goes through here: text content and quoted attribute values alike (the same five
/// characters cover both, as the OWASP XSS prevention rules say, since we always quote
/// attributes with `"`). Control characters other than tab and newline, and the bidi overrides
/// and isolates (U+202A–U+202E, U+2066–U+2069, as `TerminalText`), become U+FFFD, so no feed can
/// smuggle a NUL or an escape sequence into a page, nor reorder the text shown around its own.
public enum HTMLEscape {
    /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
    public static func text(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if TerminalText.isUnsafe(scalar) {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// A URL for an `href`: escaped as `text`, and only when its scheme is `http` or `https`
    /// (a feed's `javascript:` or `data:` link is refused); `nil` otherwise.
    public static func link(_ url: String?) -> String? {
        guard let url else { return nil }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return nil }
        return text(url)
    }
}
