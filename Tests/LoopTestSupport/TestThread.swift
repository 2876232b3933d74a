import Foundation

/// A plain OS thread (not the cooperative pool) running `body` once, joinable.
public final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    /// Starts a thread that runs `body`.
    public init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.start()
    }

    /// Waits until `body` has returned.
    public func join() { done.wait() }
}
