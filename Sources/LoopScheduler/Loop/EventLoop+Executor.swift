/// Every loop is a `SerialExecutor`: pin an actor to it with
/// `nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }`,
/// and the actor's code runs on the loop's thread (which may be another thread than the caller's).
extension EventLoop: SerialExecutor {
    /// Runs `job` on the loop's thread through `execute(_:)`, so an actor whose
    /// `unownedExecutor` is `loop.asUnownedSerialExecutor()` is isolated to the loop (as SwiftNIO's
    /// event-loop executors). Any thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        execute { [self] in
            unowned.runSynchronously(on: self.asUnownedSerialExecutor())
        }
    }

    /// Lets `assumeIsolated` succeed on the loop's thread; traps with a message elsewhere.
    public func checkIsolated() {
        precondition(inEventLoop, "not on this EventLoop's thread")
    }
}
