import FuzzSupport
import PodcastFeeds

/// `DateParser` on arbitrary text: never traps, and an accepted date is an instant within years
/// 1...9999 (`parse` and `parseSeconds` agree).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    if let seconds = DateParser.parseSeconds(text) {
        fuzzCheck(seconds >= -62_135_596_800 && seconds < 253_402_300_800, "\(text.debugDescription) → \(seconds)")
        fuzzCheck(DateParser.parse(text)?.timeIntervalSince1970 == Double(seconds), "parse and parseSeconds disagree")
    }
    return 0
}

@_cdecl("fuzz_date_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}
