/// Misuse and failures reported by `EventLoop`, as thrown Swift errors.
public enum EventLoopError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libevent could not create an `event_base` (or its configuration), for example because the
    /// process ran out of file descriptors.
    case baseCreationFailed
    /// `run()` was called from inside a callback of the same loop.
    case reentrantRun
    /// `run()` was called while the loop is already running on another thread, or the main loop
    /// was run off the main thread.
    case wrongThread
    /// libevent's `event_base_loop` returned -1 (for example foreign code is already running the
    /// adopted base).
    case dispatchFailed
    /// The signal number is out of range or cannot be caught (`SIGKILL`, `SIGSTOP`).
    case invalidSignal(Int32)
    /// Another `EventLoop` already watches POSIX signals. libevent delivers signals to one base
    /// per process, so only one loop may hold signal registrations at a time.
    case signalsClaimedByAnotherLoop
    /// libevent refused to add the event (`event_add` returned -1).
    case registrationFailed
    /// The loop was used after `shutdown()`.
    case shutDown

    /// A readable explanation, naming the fix where there is one.
    public var description: String {
        switch self {
        case .baseCreationFailed: return "libevent could not create an event_base"
        case .reentrantRun: return "EventLoop.run() called re-entrantly from one of its own callbacks"
        case .wrongThread:
            return
                "EventLoop.run() called on the wrong thread (main loop off the main thread, or the loop is running on another thread)"
        case .dispatchFailed: return "event_base_loop failed (is another caller already running this base?)"
        case .invalidSignal(let s): return "signal \(s) cannot be watched (out of range, SIGKILL or SIGSTOP)"
        case .signalsClaimedByAnotherLoop:
            return
                "another EventLoop already watches POSIX signals; libevent supports one signal-handling base per process"
        case .registrationFailed: return "libevent refused to add the event"
        case .shutDown: return "the EventLoop was used after shutdown()"
        }
    }
}
