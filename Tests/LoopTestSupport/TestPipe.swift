#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A pipe for descriptor tests (one byte written or read at a time); closes both ends on deinit.
public final class TestPipe {
    /// The read end's descriptor.
    public let readEnd: Int32
    /// The write end's descriptor.
    public let writeEnd: Int32

    /// Opens the pipe; traps if the process is out of descriptors.
    public init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Makes the read end readable.
    public func writeByte() {
        var b: UInt8 = 1
        _ = write(writeEnd, &b, 1)
    }

    /// Drains the byte `writeByte()` wrote.
    public func readByte() {
        var b: UInt8 = 0
        _ = read(readEnd, &b, 1)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
