import CGLib
import Foundation
import XCTest

@testable import GLibLoop
@testable import LoopScheduler

/// A pointer-sized counter GLib callbacks can bump (their `user_data`).
private final class CallCounter {
    let pointer = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    init() { pointer.pointee = 0 }
    deinit { pointer.deallocate() }
    var value: Int { pointer.pointee }
}

/// GLib sources served by our loop (`GLibContextDriver`): the loop runs, GLib's sources fire.
final class GLibContextDriverTests: XCTestCase {
    private var context: OpaquePointer!
    private var loop: EventLoop!

    override func setUpWithError() throws {
        context = g_main_context_new()
        loop = try EventLoop()
    }

    override func tearDown() {
        loop = nil
        g_main_context_unref(context)
    }

    /// Blocking iterations of our loop until `done()`, with a 5 s guard timer.
    private func run(until done: () -> Bool) {
        var timedOut = false
        let guardTimer = loop.scheduleTimer(after: .seconds(5)) { timedOut = true }
        while !done() && !timedOut { loop.runOnce(blocking: true) }
        guardTimer.cancel()
        XCTAssertFalse(timedOut, "timed out")
    }

    func testAGLibTimeoutFiresOnceAtItsDeadlineUnderOurLoop() throws {
        let calls = CallCounter()
        let timeout = g_timeout_source_new(30)!
        g_source_set_callback(
            timeout,
            { arg in
                arg!.assumingMemoryBound(to: Int.self).pointee += 1
                return 0  // G_SOURCE_REMOVE
            }, calls.pointer, nil)
        g_source_attach(timeout, context)
        let start = MonotonicInstant.now()
        let driver = try GLibContextDriver(context: context, loop: loop)
        run { calls.value == 1 }
        XCTAssertGreaterThanOrEqual(start.distance(to: .now()), .milliseconds(30))
        XCTAssertEqual(driver.dispatchCount, 1)
        loop.runOnce(blocking: false)
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(driver.dispatchCount, 1)
        g_source_unref(timeout)
        driver.invalidate()
    }

    func testAGLibDescriptorSourceRunsWhenItsDescriptorIsReady() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let calls = CallCounter()
        let source = g_unix_fd_source_new(fds[0], G_IO_IN)!
        let callback: GUnixFDSourceFunc = { fd, _, arg in
            var byte: UInt8 = 0
            _ = read(fd, &byte, 1)
            arg!.assumingMemoryBound(to: Int.self).pointee += 1
            return 1  // G_SOURCE_CONTINUE
        }
        g_source_set_callback(source, unsafeBitCast(callback, to: GSourceFunc.self), calls.pointer, nil)
        g_source_attach(source, context)
        let driver = try GLibContextDriver(context: context, loop: loop)
        loop.runOnce(blocking: false)
        XCTAssertEqual(calls.value, 0)
        var byte: UInt8 = 1
        _ = write(fds[1], &byte, 1)
        run { calls.value == 1 }
        loop.runOnce(blocking: false)
        XCTAssertEqual(calls.value, 1)
        XCTAssertEqual(driver.dispatchCount, 1)
        _ = write(fds[1], &byte, 1)
        run { calls.value == 2 }
        XCTAssertEqual(driver.dispatchCount, 2)
        g_source_destroy(source)
        g_source_unref(source)
        driver.invalidate()
    }

    func testASourceAttachedFromAnotherThreadWakesOurLoop() throws {
        let driver = try GLibContextDriver(context: context, loop: loop)
        let calls = CallCounter()
        let contextAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(self.context!)))
        let pointer = UInt(bitPattern: calls.pointer)
        Thread {
            let context = OpaquePointer(bitPattern: contextAddress)
            usleep(20_000)
            let idle = g_idle_source_new()!
            g_source_set_callback(
                idle,
                { arg in
                    arg!.assumingMemoryBound(to: Int.self).pointee += 1
                    return 0
                }, UnsafeMutableRawPointer(bitPattern: pointer), nil)
            g_source_attach(idle, context)  // GLib signals its wake-up: the owner is our thread
            g_source_unref(idle)
        }.start()
        run { calls.value == 1 }
        XCTAssertEqual(driver.dispatchCount, 1)
        driver.invalidate()
    }

    func testRefreshPicksUpASourceAttachedOnTheLoopThread() throws {
        let driver = try GLibContextDriver(context: context, loop: loop)
        let calls = CallCounter()
        let idle = g_idle_source_new()!
        g_source_set_callback(
            idle,
            { arg in
                arg!.assumingMemoryBound(to: Int.self).pointee += 1
                return 0
            }, calls.pointer, nil)
        g_source_attach(idle, context)
        driver.refresh()
        run { calls.value == 1 }
        XCTAssertEqual(driver.dispatchCount, 1)
        g_source_unref(idle)
        driver.invalidate()
    }

    /// Serving an idle GLib context (a timeout far away, a silent descriptor source) costs our
    /// loop no wake-up: one blocking iteration spans a quiet 50 ms.
    func testAnIdleContextLetsOurLoopSleep() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let far = g_timeout_source_new(60_000)!
        g_source_attach(far, context)
        let silent = g_unix_fd_source_new(fds[0], G_IO_IN)!
        g_source_attach(silent, context)
        let driver = try GLibContextDriver(context: context, loop: loop)
        for _ in 0..<3 { loop.runOnce(blocking: false) }  // settle: nothing should be pending
        var fired = false
        let timer = loop.scheduleTimer(after: .milliseconds(50)) { fired = true }
        var iterations = 0
        let start = MonotonicInstant.now()
        while !fired {
            loop.runOnce(blocking: true)
            iterations += 1
        }
        XCTAssertGreaterThanOrEqual(start.distance(to: .now()), .milliseconds(50))
        XCTAssertEqual(iterations, 1, "our loop slept through the quiet 50 ms")
        XCTAssertEqual(driver.dispatchCount, 0)
        timer.cancel()
        g_source_destroy(far)
        g_source_unref(far)
        g_source_destroy(silent)
        g_source_unref(silent)
        driver.invalidate()
    }

    func testAContextOwnedByAnotherThreadIsRefused() throws {
        let acquired = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let contextAddress = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(self.context!)))
        Thread {
            let context = OpaquePointer(bitPattern: contextAddress)
            _ = g_main_context_acquire(context)
            acquired.signal()
            release.wait()
            g_main_context_release(context)
            acquired.signal()
        }.start()
        acquired.wait()
        XCTAssertThrowsError(try GLibContextDriver(context: self.context, loop: loop)) { error in
            XCTAssertEqual(error as? GLibContextDriver.Failure, .contextOwnedElsewhere)
        }
        release.signal()
        acquired.wait()
    }
}

/// What a GIO client does when it reconnects: inside a GLib callback it closes its socket and
/// opens a new one, which gets the same descriptor number, and watches that. The number is the
/// same, the open file is not: closing dropped the old one from libevent's epoll set, so a watch
/// kept because its number and events matched never saw the new file.
private final class ReconnectingClient {
    let context: OpaquePointer
    var descriptor: Int32
    var newWriteEnd: Int32 = -1
    var reconnects = 0
    var reads = 0

    init(context: OpaquePointer, descriptor: Int32) {
        self.context = context
        self.descriptor = descriptor
    }

    func watch() {
        let source = g_unix_fd_source_new(descriptor, G_IO_IN)!
        let callback: GUnixFDSourceFunc = { fd, _, arg in
            let client = Unmanaged<ReconnectingClient>.fromOpaque(arg!).takeUnretainedValue()
            var byte: UInt8 = 0
            _ = read(fd, &byte, 1)
            if client.reconnects > 0 {
                client.reads += 1
                return 1  // G_SOURCE_CONTINUE
            }
            // Reconnect: a new pipe whose read end takes this very number.
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            precondition(dup2(fds[0], fd) == fd)  // closes the old file behind `fd`
            close(fds[0])
            client.newWriteEnd = fds[1]
            client.reconnects += 1
            client.watch()
            return 0  // G_SOURCE_REMOVE: the old connection's source goes
        }
        g_source_set_callback(
            source, unsafeBitCast(callback, to: GSourceFunc.self), Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
        g_source_unref(source)
    }
}

extension GLibContextDriverTests {
    func testADescriptorNumberReopenedInsideAGLibCallbackIsPolledAgain() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let client = ReconnectingClient(context: context, descriptor: fds[0])
        defer {
            close(client.descriptor)
            close(fds[1])
            if client.newWriteEnd >= 0 { close(client.newWriteEnd) }
        }
        client.watch()
        let driver = try GLibContextDriver(context: context, loop: loop)
        defer { driver.invalidate() }
        var byte: UInt8 = 1
        XCTAssertEqual(write(fds[1], &byte, 1), 1)
        run { client.reconnects == 1 }
        XCTAssertEqual(client.descriptor, fds[0])
        XCTAssertEqual(write(client.newWriteEnd, &byte, 1), 1)
        run { client.reads == 1 }
        XCTAssertEqual(client.reads, 1)
        XCTAssertEqual(write(client.newWriteEnd, &byte, 1), 1)
        run { client.reads == 2 }
        XCTAssertEqual(client.reconnects, 1)
    }
}

extension GLibContextDriverTests {
    /// A descriptor GLib polls that is already closed is reported to its source as G_IO_NVAL, as
    /// GLib's own `poll` would (libevent cannot watch it; the driver trapped on it).
    func testAClosedDescriptorIsReportedAsInvalid() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        close(fds[0])
        close(fds[1])
        let conditions = CallCounter()
        let source = g_unix_fd_source_new(fds[0], G_IO_IN)!
        let callback: GUnixFDSourceFunc = { _, condition, arg in
            arg!.assumingMemoryBound(to: Int.self).pointee = Int(condition.rawValue)
            return 0  // G_SOURCE_REMOVE
        }
        g_source_set_callback(source, unsafeBitCast(callback, to: GSourceFunc.self), conditions.pointer, nil)
        g_source_attach(source, context)
        g_source_unref(source)
        let driver = try GLibContextDriver(context: context, loop: loop)
        defer { driver.invalidate() }
        run { conditions.value != 0 }
        XCTAssertEqual(conditions.value, Int(G_IO_NVAL.rawValue))
    }
}
