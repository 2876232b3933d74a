#if canImport(Glibc)
import Glibc
#endif

/// SIGHUP and SIGUSR1 mean "reload" and "poll now" to `run`, but their default action ends the
/// process: one arriving before `run` installed its handlers (its first 10–20 ms) killed the
/// daemon. The executable blocks them as its very first statement (`hold`), before any thread
/// exists, so every thread inherits the mask; `run` unblocks them on the main thread once its
/// handlers are in place (`release`), and a signal that came early is delivered to them then.
/// Every other command releases them at once and keeps the default behaviour.
///
/// Threading: `hold` on the main thread before any other thread starts; `release` on the main
/// thread.
public enum EarlySignals {
    /// The signals held until `run`'s handlers exist.
    public static let held: [Int32] = [SIGHUP, SIGUSR1]

    /// Blocks `held` in the calling thread (and the threads it creates from now on).
    public static func hold() {
        change(SIG_BLOCK)
    }

    /// Unblocks `held` in the calling thread; pending ones are delivered now.
    public static func release() {
        change(SIG_UNBLOCK)
    }

    private static func change(_ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in held { sigaddset(&set, signal) }
        pthread_sigmask(how, &set, nil)
    }
}
