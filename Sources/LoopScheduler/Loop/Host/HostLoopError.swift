#if canImport(Glibc)
import Glibc
#endif

/// Failures of `HostLoopDriver`, the interface a foreign main loop uses to drive an `EventLoop`.
public enum HostLoopError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another `HostLoopDriver` already drives this loop; a loop has one host at a time (detach
    /// the other one with `HostLoopDriver.invalidate()` first).
    case alreadyDriven
    /// A system call the driver needs failed (`epoll_create1`, `timerfd_create`, `eventfd`,
    /// `epoll_ctl`), usually because the process ran out of descriptors. `errno` is the value it
    /// left.
    case setupFailed(call: String, errno: Int32)
    /// The loop was shut down (`EventLoop.shutdown()`): there is nothing left to drive.
    case loopShutDown

    /// A readable explanation.
    public var description: String {
        switch self {
        case .alreadyDriven:
            return "this EventLoop already has a host loop driver; invalidate it before creating another"
        case .loopShutDown:
            return "this EventLoop was shut down; a host loop cannot drive it"
        case .setupFailed(let call, let code):
            return "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}
