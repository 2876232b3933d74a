#if canImport(Glibc)
import Glibc
#endif

/// Terminal column widths of text, by `wcwidth(3)` in a UTF-8 locale: East Asian wide and
/// fullwidth characters take 2 columns, combining and zero-width ones 0, others 1.
enum DisplayWidth {
    // A UTF-8 LC_CTYPE used only around `wcwidth` (`uselocale` is per thread), so the process's
    // own locale is left alone. nil when the system has no UTF-8 locale: then every non-ASCII
    // scalar counts 1 except combining marks (0).
    nonisolated(unsafe) private static let utf8Locale: locale_t? =
        newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)

    // Glibc's Swift module does not import `wcwidth` (an X/Open extension), so it is looked
    // up in the C library that is already loaded.
    private typealias WCWidth = @convention(c) (Int32) -> Int32
    private static let wcwidth: WCWidth? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth").map { unsafeBitCast($0, to: WCWidth.self) }

    /// Columns `scalar` occupies (control characters: 0).
    static func of(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
        if scalar.value < 0x20 || scalar.value == 0x7F { return 0 }
        guard let locale = utf8Locale, let wcwidth else {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return 0
            default: return 1
            }
        }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return max(0, Int(wcwidth(Int32(bitPattern: scalar.value))))
    }

    /// Columns `character` occupies (the sum of its scalars).
    static func of(_ character: Character) -> Int {
        character.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// Columns `text` occupies.
    static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }
}
