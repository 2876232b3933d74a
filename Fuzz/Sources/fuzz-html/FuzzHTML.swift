import FuzzSupport
import PodcastKit

/// `HTMLSanitizer` on arbitrary text (the HTML the web dashboard will show): never traps, its
/// output has no `<script`, every URL attribute it keeps is http, https or mailto (the words
/// "javascript:" may appear as escaped text), and sanitising is idempotent (the output is
/// already balanced and allow-listed, so a second pass changes nothing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let html = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let safe = HTMLSanitizer.sanitize(html)
    let lowered = safe.lowercased()
    fuzzCheck(!lowered.contains("<script"), "script kept: \(safe.debugDescription)")
    fuzzCheck(urlAttributesAreSafe(lowered), "unsafe URL kept: \(safe.debugDescription)")
    let again = HTMLSanitizer.sanitize(safe)
    fuzzCheck(again == safe, "not idempotent: \(safe.debugDescription) → \(again.debugDescription)")
    return 0
}

/// Every `href="…"`, `src="…"`, `poster="…"`, `cite="…"` inside a tag of sanitiser output
/// (lower-cased here) starts with `http:`, `https:` or `mailto:`. Text can hold the same words
/// (its quotes are not escaped), but never a raw `<`, so a match is inside a tag exactly when the
/// nearest `<` or `>` before it is a `<`. Prefixes are compared as bytes: a combining mark after
/// the `:` makes a different Character, not a different scheme.
func urlAttributesAreSafe(_ html: String) -> Bool {
    for name in [" href=\"", " src=\"", " poster=\"", " cite=\""] {
        var rest = html[...]
        while let range = rest.range(of: name) {
            let before = html[..<range.lowerBound]
            let insideTag = before.last(where: { $0 == "<" || $0 == ">" }) == "<"
            let value = rest[range.upperBound...]
            if insideTag && !["http:", "https:", "mailto:"].contains(where: { value.utf8.starts(with: $0.utf8) }) {
                return false
            }
            rest = value
        }
    }
    return true
}

@_cdecl("fuzz_html_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}
