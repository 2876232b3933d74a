import Foundation
import Testing
@testable import LoopScheduler

/// Signals are process-wide (libevent serves one base), so these run one at a time.
@Suite(.serialized) struct SignalTests {
    @Test func sigusr1RaisedToTheProcessRunsTheHandlerOnTheLoop() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        var received = 0
        let registration = try loop.onSignal(SIGUSR1) {
            received += 1
            loop.stop()
        }
        let watchdogFired = Shared(false)
        let watchdog = loop.watchdog(watchdogFired)
        let kick = loop.scheduleTimer(after: .nanoseconds(0)) {
            kill(getpid(), SIGUSR1)
        }
        try loop.run()
        #expect(received == 1)
        #expect(!watchdogFired.value)
        registration.cancel()
        kick.cancel()
        watchdog.cancel()
    }

    @Test func aSecondLoopClaimingSignalsIsAnError() throws {
        let first = try EventLoop()
        defer { first.shutdown() }
        let second = try EventLoop()
        defer { second.shutdown() }
        let held = try first.onSignal(SIGUSR2) {}
        #expect(throws: EventLoopError.signalsClaimedByAnotherLoop) {
            _ = try second.onSignal(SIGHUP) {}
        }
        held.cancel()
        // Released: now the second loop may take signals.
        let taken = try second.onSignal(SIGUSR2) {}
        taken.cancel()
    }

    @Test func uncatchableOrOutOfRangeSignalsAreRejected() throws {
        let loop = try EventLoop()
        defer { loop.shutdown() }
        #expect(throws: EventLoopError.invalidSignal(SIGKILL)) { _ = try loop.onSignal(SIGKILL) {} }
        #expect(throws: EventLoopError.invalidSignal(SIGSTOP)) { _ = try loop.onSignal(SIGSTOP) {} }
        #expect(throws: EventLoopError.invalidSignal(0)) { _ = try loop.onSignal(0) {} }
        #expect(throws: EventLoopError.invalidSignal(99)) { _ = try loop.onSignal(99) {} }
    }
}
