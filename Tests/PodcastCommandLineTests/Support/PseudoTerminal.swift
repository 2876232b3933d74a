import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal pair (master, slave), both to be closed by the caller.
func openPseudoTerminal() throws -> (Int32, Int32) {
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    XCTAssertGreaterThanOrEqual(master, 0)
    // Swift's Glibc module does not declare the XSI pty calls: look them up.
    typealias FDCall = @convention(c) (Int32) -> Int32
    typealias NameCall = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
    let libc = dlopen(nil, RTLD_NOW)
    let unlockpt = unsafeBitCast(try XCTUnwrap(dlsym(libc, "unlockpt")), to: FDCall.self)
    let ptsnameR = unsafeBitCast(try XCTUnwrap(dlsym(libc, "ptsname_r")), to: NameCall.self)
    XCTAssertEqual(unlockpt(master), 0)
    var name = [CChar](repeating: 0, count: 128)
    XCTAssertEqual(ptsnameR(master, &name, name.count), 0)
    let slave = open(
        String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), O_RDWR | O_NOCTTY)
    XCTAssertGreaterThanOrEqual(slave, 0)
    return (master, slave)
}
