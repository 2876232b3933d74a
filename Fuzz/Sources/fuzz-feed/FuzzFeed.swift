import FuzzSupport
import PodcastFeeds

/// `FeedParser` on arbitrary bytes (the first byte picks the HTTP charset hint), then the HTML
/// sanitiser on every episode's HTML: never traps, and the sanitised HTML holds no `<script`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let hints: [String?] = [
        nil, "text/xml; charset=iso-8859-1", "application/rss+xml; charset=utf-8", "text/xml; charset=utf-16",
    ]
    let hint = input.isEmpty ? nil : hints[Int(input[0]) % hints.count]
    guard
        let feed = try? FeedParser.parse(
            bytes: Array(input), baseURL: "http://example.com/dir/feed.xml", httpContentType: hint)
    else {
        return 0
    }
    for episode in feed.episodes {
        if let safe = episode.sanitizedDescriptionHTML {
            fuzzCheck(!safe.lowercased().contains("<script"), "sanitised HTML kept a script: \(safe)")
        }
    }
    return 0
}

@_cdecl("fuzz_feed_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}
