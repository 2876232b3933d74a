import CLibxml2
import Foundation

/// Resolves URL references from a feed (RFC 3986 §5) against the document URL or `xml:base`,
/// using libxml2's `xmlBuildURI`. Absolute references are returned as written (only trimmed), so
/// ids and URLs survive byte for byte.
enum URLResolver {
    /// `reference` trimmed and, when relative, resolved against `base`. If libxml2 cannot resolve
    /// it (an unparseable reference or base), the trimmed reference is returned unchanged.
    static func resolve(_ reference: String, against base: String?) -> String {
        let trimmed = reference.trimmedASCII
        guard !trimmed.isEmpty, let base, !base.isEmpty, !hasScheme(trimmed) else { return trimmed }
        guard let built = xmlBuildURI(trimmed, base) else { return trimmed }
        defer { free(built) }
        return String(cString: built)
    }

    /// True when the reference starts with an RFC 3986 scheme (`ALPHA *( ALPHA / DIGIT / + - . ) :`).
    static func hasScheme(_ text: String) -> Bool {
        var first = true
        for byte in text.utf8 {
            let isAlpha = (byte | 0x20) >= 97 && (byte | 0x20) <= 122
            if first {
                guard isAlpha else { return false }
                first = false
                continue
            }
            if byte == UInt8(ascii: ":") { return true }
            guard isAlpha || (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46 else { return false }
        }
        return false
    }
}
