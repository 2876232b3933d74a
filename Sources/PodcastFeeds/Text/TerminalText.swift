/// Neutralises text from a feed or a server before it reaches a terminal: C0 controls (ESC, BEL,
/// CR, backspace...), DEL, C1 controls (U+0080–U+009F, where CSI and OSC live in 8-bit form) and
/// the bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what is shown.
/// A neutralised character is replaced, never silently dropped: a C0 control or DEL by its
/// Control Pictures symbol (ESC shows as `␛`), the others by U+FFFD. So no escape sequence
/// (cursor moves, screen clears, OSC 0 titles, OSC 52 clipboard writes) can run, and the text
/// still shows that something was there. JSON output is escaped instead (`OrderedJSON`).
///
/// Pure; any thread.
public enum TerminalText {
    /// Whether `scalar` is one this type neutralises (in `block`, line feeds and tabs are kept).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Whether `title` may be stored as a subscription's own title (`add --title`, an OPML
    /// outline's title): no unsafe scalar at all, line breaks and tabs included.
    public static func isAcceptableTitle(_ title: String) -> Bool {
        !title.unicodeScalars.contains(where: isUnsafe)
    }

    /// One line of text: line breaks and tabs become spaces, every other unsafe scalar its
    /// replacement. For titles, URLs, error messages, table cells.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in text.unicodeScalars {
            defer { previousCR = scalar == "\r" }
            switch scalar {
            case "\n" where previousCR: continue  // CRLF is one break
            case "\n", "\r", "\t": out.append(" ")
            default: out.append(replacement(scalar))
            }
        }
        return String(out)
    }

    /// Multi-line text (`show`'s descriptions, stderr messages): line feeds and tabs are kept,
    /// a CRLF becomes a line feed, every other unsafe scalar its replacement.
    public static func block(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            switch scalar {
            case "\n", "\t": out.append(scalar)
            case "\r" where i + 1 < scalars.count && scalars[i + 1] == "\n": continue
            case "\r": out.append("\n")
            default: out.append(replacement(scalar))
            }
        }
        return String(out)
    }

    private static func replacement(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard isUnsafe(scalar) else { return scalar }
        let v = scalar.value
        if v < 0x20 { return Unicode.Scalar(0x2400 + v)! }  // ␀ … ␟
        if v == 0x7F { return "\u{2421}" }  // ␡
        return "\u{FFFD}"
    }
}
