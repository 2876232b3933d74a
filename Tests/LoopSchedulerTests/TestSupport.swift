import Foundation
import LoopScheduler
import Synchronization

/// A locked value for tests that share state between threads and callbacks.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            defer { lock.unlock() }
            stored = newValue
        }
    }

    func mutate<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

/// A plain OS thread (not the cooperative pool), joinable.
final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in
            body()
            done.signal()
        }
        thread.start()
    }

    func join() { done.wait() }
}

/// A pipe for descriptor tests; closes both ends on deinit.
final class TestPipe {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    func writeByte() {
        var b: UInt8 = 1
        _ = write(writeEnd, &b, 1)
    }
    func readByte() {
        var b: UInt8 = 0
        _ = read(readEnd, &b, 1)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}

extension EventLoop {
    /// A timer that stops the loop and records that it had to: tests assert it never fires, so a
    /// missing wake-up fails instead of hanging.
    func watchdog(_ fired: Shared<Bool>, seconds: Int = 10) -> EventRegistration {
        scheduleTimer(after: .seconds(seconds)) { [self] in
            fired.value = true
            stop()
        }
    }
}
