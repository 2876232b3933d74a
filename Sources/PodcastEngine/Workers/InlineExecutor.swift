import LoopScheduler

/// An `OffLoopExecutor` that runs the work at once on the calling thread: the work and
/// `completion` run inside `submit`, and `started` is never called (nothing can be timed). For tests driven by a virtual clock and for
/// embedders that have no loop to protect; `podcast-watch run` uses a `WorkerPool`.
public final class InlineExecutor: OffLoopExecutor {
    /// An executor.
    public init() {}

    /// Runs `work`, then `completion` with its result, now; the token does nothing.
    public func submit<T: Sendable>(
        _ work: @escaping @Sendable () -> T, started: @escaping () -> Void, completion: @escaping (T) -> Void
    ) -> Cancellable {
        completion(work())
        return AnyCancellable {}
    }
}
