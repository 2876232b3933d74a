import Foundation

/// A value shared between threads and callbacks in tests, behind a lock (`NSLock`: a pthread
/// mutex, which ThreadSanitizer sees, unlike `Synchronization.Mutex` on Linux).
public final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    /// A shared `value`.
    public init(_ value: Value) { stored = value }

    /// The value, read or replaced under the lock.
    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Runs `body` on the value under the lock (for read-modify-write) and returns its result.
    @discardableResult
    public func mutate<R>(_ body: (inout Value) -> R) -> R {
        lock.withLock { body(&stored) }
    }
}
