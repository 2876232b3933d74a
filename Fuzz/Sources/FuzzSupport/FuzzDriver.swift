/// libFuzzer's entry for a program that keeps its own `main`: runs the fuzzing loop (or replays
/// the files named on the command line) with `callback` as the test function.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process's arguments (`-max_total_time=60 corpus/ ...`).
///
/// Why this shape: SwiftPM links a debug executable with `--defsym main=<module>_main` (so tests
/// can import it) and `-parse-as-library` leaves that symbol undefined, so each target defines
/// `<module>_main` itself and enters libFuzzer through `LLVMFuzzerRunDriver`; the target also
/// defines `LLVMFuzzerTestOneInput`, which libFuzzer's own (unused) `main` object refers to.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector, callback)
}

/// The input as a buffer (libFuzzer may pass a null pointer for the empty input).
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    guard let data, size > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: data, count: size)
}

/// Stops the run (libFuzzer records the input as a crash) when an invariant does not hold.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant violated: \(message())") }
}
