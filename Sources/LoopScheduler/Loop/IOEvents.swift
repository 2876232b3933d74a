import CLibevent

/// Readiness conditions of a file descriptor, mirroring libevent's `EV_READ`, `EV_WRITE` and
/// `EV_TIMEOUT` bits.
public struct IOEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The libevent bit mask.
    public let rawValue: Int16

    /// Wraps a libevent bit mask.
    public init(rawValue: Int16) {
        self.rawValue = rawValue
    }

    /// The descriptor is readable (or at end of file / error), libevent `EV_READ`.
    public static let read = IOEvents(rawValue: Int16(EV_READ))
    /// The descriptor is writable, libevent `EV_WRITE`.
    public static let write = IOEvents(rawValue: Int16(EV_WRITE))
    /// The watch's inactivity timeout elapsed with no readiness, libevent `EV_TIMEOUT`. Only
    /// reported, never requested.
    public static let timeout = IOEvents(rawValue: Int16(EV_TIMEOUT))

    /// For example `[read, write]`.
    public var description: String {
        var names: [String] = []
        if contains(.read) { names.append("read") }
        if contains(.write) { names.append("write") }
        if contains(.timeout) { names.append("timeout") }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
