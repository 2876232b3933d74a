import FuzzSupport
import PodcastFeeds

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

/// Every `href`, `src`, `poster` and `cite` attribute in sanitiser output starts with `http:`,
/// `https:` or `mailto:` (compared as bytes, lower-cased by the caller).
func urlAttributesAreSafe(_ html: String) -> Bool {
    // Sanitiser output: text never holds a raw `<`; inside a tag every value is double-quoted and
    // holds no raw `"`. So a tag is `<name`, then `name="value"` pairs, then `>`.
    let b = Array(html.utf8)
    var i = 0
    while i < b.count {
        guard b[i] == UInt8(ascii: "<") else {
            i += 1
            continue
        }
        while i < b.count, b[i] != UInt8(ascii: ">") {
            if b[i] == UInt8(ascii: "=") {
                var nameStart = i
                while nameStart > 0, b[nameStart - 1] != 0x20 { nameStart -= 1 }
                let name = String(decoding: b[nameStart..<i], as: UTF8.self)
                guard i + 1 < b.count, b[i + 1] == UInt8(ascii: "\"") else { return false }
                var end = i + 2
                while end < b.count, b[end] != UInt8(ascii: "\"") { end += 1 }
                let value = b[(i + 2)..<min(end, b.count)]
                if ["href", "src", "poster", "cite"].contains(name),
                    !["http:", "https:", "mailto:"].contains(where: { value.starts(with: $0.utf8) })
                {
                    return false
                }
                i = end
            }
            i += 1
        }
    }
    return true
}

@_cdecl("fuzz_html_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}
