import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastFeeds

/// A URL attribute whose value ends in blanks followed by control bytes: the blanks were kept on
/// the first pass (trimmed before the controls were removed) and trimmed on the second, so the
/// page and the stored copy could differ. libFuzzer found it in `make test`'s fuzz run; the input
/// is kept in `Fuzz/Regressions/html/` (replayed by `FuzzRegressionTests` and seeded into every
/// fuzz run).
@Suite struct SanitizerIdempotenceTests {
    static let regression = "html/control-bytes-in-href-then-lt-runs"

    @Test func theFuzzerInputSanitisesToAFixedPoint() throws {
        #expect(FuzzRegressionTests.inputs("html").contains(Self.regression))
        let input = String(decoding: try FuzzRegressionTests.bytes(Self.regression), as: UTF8.self)
        let safe = HTMLSanitizer.sanitize(input)
        #expect(HTMLSanitizer.sanitize(safe) == safe)
        #expect(safe.hasSuffix("tw\" rel=\"nofollow noopener noreferrer\"></a>"), "\(safe.debugDescription)")
    }

    @Test func blanksUncoveredByRemovedControlsAreTrimmed() {
        let cases = [
            "<a href=\"http://e.com/x \u{0}\u{1}\">t</a>", "<a href=\"\u{7F} http://e.com/x\">t</a>",
            "<a href=\" \u{0} http://e.com/x \t\n \">t</a>",
        ]
        for html in cases {
            let safe = HTMLSanitizer.sanitize(html)
            #expect(
                safe == "<a href=\"http://e.com/x\" rel=\"nofollow noopener noreferrer\">t</a>",
                "\(html.debugDescription)")
            #expect(HTMLSanitizer.sanitize(safe) == safe)
        }
    }
}
