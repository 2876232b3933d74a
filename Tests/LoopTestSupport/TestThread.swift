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

    /// Waits until `body` has returned, at most `seconds`; returns whether it did. A test that
    /// races threads joins them with this and fails when one never returns (a deadlock), instead
    /// of hanging the whole run.
    public func join(within seconds: Double) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }
}

/// SplitMix64: a small deterministic generator for stress tests (fixed seeds, reproducible runs).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Objects a test gave up on because threads it started never returned (a deadlock it just
/// reported): kept alive for the rest of the run, since freeing them under the hung threads
/// would crash the process instead of failing the one test.
public enum AbandonedAfterDeadlock {
    nonisolated(unsafe) private static var kept: [AnyObject] = []
    private static let lock = NSLock()

    /// Keeps `object` alive until the process exits.
    public static func keep(_ object: AnyObject) {
        lock.withLock { kept.append(object) }
    }
}
