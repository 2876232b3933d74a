import Foundation
import LoopTestSupport
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

    /// Under a host loop (HostLoopDriver) the signal shows on the driver's descriptor: libevent's
    /// internal signal socketpair is mirrored like any other watched descriptor.
    @Test func aSignalWakesAHostLoopThroughTheDriversDescriptor() throws {
        let loop = try EventLoop()
        let driver = try loop.makeHostDriver()
        var received = 0
        let registration = try loop.onSignal(SIGUSR2) { received += 1 }
        #expect(driver.prepare() == nil)
        var entry = pollfd(fd: driver.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 0) == 0)
        kill(getpid(), SIGUSR2)
        #expect(poll(&entry, 1, 5_000) == 1)
        driver.dispatch()
        #expect(received == 1)
        #expect(driver.prepare() == nil)
        #expect(poll(&entry, 1, 20) == 0)
        registration.cancel()
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
