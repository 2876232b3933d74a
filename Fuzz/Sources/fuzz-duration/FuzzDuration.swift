import FuzzSupport
import PodcastFeeds

/// `DurationParser` on arbitrary text: never traps; an accepted duration is finite and >= 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    if let seconds = DurationParser.parse(text) {
        fuzzCheck(seconds.isFinite && seconds >= 0, "\(text.debugDescription) → \(seconds)")
    }
    return 0
}

@_cdecl("fuzz_duration_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}
