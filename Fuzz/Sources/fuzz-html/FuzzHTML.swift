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

/// Every `href="…"`, `src="…"`, `poster="…"`, `cite="…"` in sanitiser output (double-quoted,
/// lower-cased here) starts with `http:`, `https:` or `mailto:`.
func urlAttributesAreSafe(_ html: String) -> Bool {
    for name in [" href=\"", " src=\"", " poster=\"", " cite=\""] {
        var rest = html[...]
        while let range = rest.range(of: name) {
            let value = rest[range.upperBound...]
            guard value.hasPrefix("http:") || value.hasPrefix("https:") || value.hasPrefix("mailto:") else { return false }
            rest = value
        }
    }
    return true
}

@_cdecl("fuzz_html_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}
