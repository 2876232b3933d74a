import CSystemd
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Tells a service manager what `run` is doing, through libsystemd's `sd_notify(3)`: the
/// `Type=notify` protocol (`READY=1`, `RELOADING=1`, `STOPPING=1`, `STATUS=`) and the watchdog
/// (`WATCHDOG=1`, `sd_watchdog_enabled(3)`).
///
/// Inactive (every call does nothing, no syscall) unless `NOTIFY_SOCKET` is set in the
/// environment it is given. libsystemd reads the socket's address from the process
/// environment itself; the dictionary only decides whether to try.
///
/// Threading: the loop's thread (the session calls it from signal handlers and timers there).
package final class ServiceNotifier {
    /// Whether `NOTIFY_SOCKET` was set: messages are sent.
    package let isActive: Bool
    /// How often to send `WATCHDOG=1`: half of `WATCHDOG_USEC` (as `sd_watchdog_enabled(3)`
    /// advises), in microseconds, at least `minimumWatchdogInterval`; `nil` when the watchdog is
    /// off or this is not the watched pid.
    package let watchdogInterval: UInt64?
    /// 10 ms: a tiny `WATCHDOG_USEC` (1 µs, a typo) must not turn the loop into a busy sender.
    static let minimumWatchdogInterval: UInt64 = 10_000
    private var stopping = false

    /// A notifier for the service manager named by `environment` (the process's, normally).
    package init(environment: [String: String]) {
        isActive = !(environment["NOTIFY_SOCKET"] ?? "").isEmpty
        var usec: UInt64 = 0
        // > 0: WATCHDOG_USEC is set and WATCHDOG_PID (if set) is this process.
        if isActive, environment["WATCHDOG_USEC"] != nil, sd_watchdog_enabled(0, &usec) > 0, usec > 0 {
            watchdogInterval = max(usec / 2, ServiceNotifier.minimumWatchdogInterval)
        } else {
            watchdogInterval = nil
        }
    }

    /// `READY=1` with a status line: startup finished, polling has begun (also after a reload).
    package func ready(status: String) { send("READY=1\nSTATUS=\(ServiceNotifier.clean(status))") }

    /// `RELOADING=1` (with `MONOTONIC_USEC`, which systemd 253's `Type=notify-reload` wants):
    /// a SIGHUP reload started; `ready(status:)` follows when it is done.
    package func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let usec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        send("RELOADING=1\nMONOTONIC_USEC=\(usec)")
    }

    /// `STOPPING=1`, once: shutdown began.
    package func stoppingOnce() {
        guard !stopping else { return }
        stopping = true
        send("STOPPING=1")
    }

    /// `WATCHDOG=1`: the loop is alive. Called from a loop timer, so a stuck loop stops it.
    package func petWatchdog() { send("WATCHDOG=1") }

    private func send(_ message: String) {
        guard isActive else { return }
        _ = sd_notify(0, message)  // best effort: a manager that went away changes nothing here
    }

    // A status is one line of text (feed titles never go into it, but be safe).
    static func clean(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0) })
    }
}
