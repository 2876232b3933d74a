import LoopScheduler

/// Runs work whose cost an input controls (parsing a feed, reading a local file) away from the
/// loop thread, and hands the result back to the loop thread.
///
/// Contract: `started` runs once on the loop thread when a worker takes the job (so a budget can
/// be timed from then, not from a queue wait), then `completion` runs once on the loop thread
/// with the result. Only `cancel()` cancels: releasing the token does not. An executor that runs the work in place (`InlineExecutor`) never calls
/// `started`: the work is over before anything could time it. After the returned token is cancelled neither runs again; the work itself
/// may still finish on its worker (it cannot be interrupted), and its result is dropped.
public protocol OffLoopExecutor: AnyObject {
    /// Queues `work`; see the protocol for when `started` and `completion` run. Call on the loop
    /// thread.
    func submit<T: Sendable>(
        _ work: @escaping @Sendable () -> T, started: @escaping () -> Void, completion: @escaping (T) -> Void
    ) -> Cancellable
}

extension OffLoopExecutor {
    /// `submit` without a `started` notification.
    public func submit<T: Sendable>(_ work: @escaping @Sendable () -> T, completion: @escaping (T) -> Void)
        -> Cancellable
    {
        submit(work, started: {}, completion: completion)
    }
}
