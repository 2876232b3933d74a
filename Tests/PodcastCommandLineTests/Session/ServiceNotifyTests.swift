import Foundation
import PodcastTestSupport
import XCTest

@testable import PodcastEngine

#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's notify socket: binds to a path, collects the
/// `sd_notify` messages in arrival order.
final class FakeServiceManager {
    let path: String
    private let fd: Int32
    private(set) var messages: [String] = []

    init(directory: String) throws {
        path = directory + "/notify.sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw XCTSkip("no AF_UNIX datagram socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw XCTSkip("temporary path too long for a socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw XCTSkip("cannot bind \(path): errno \(errno)") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Reads what arrived (waiting up to `timeout` ms for the first datagram).
    func collect(timeout: Int32 = 50) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var wait = timeout
        while poll(&pfd, 1, wait) > 0 {
            wait = 0  // then only what is already there (the watchdog never pauses)
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            messages.append(String(decoding: buffer[..<n], as: UTF8.self))
        }
    }

    /// Collects until `condition` holds on the messages, or 20 s pass.
    @discardableResult
    func wait(until condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !condition(messages) {
            if Date() > deadline { return false }
            collect()
        }
        return true
    }
}

/// `run` under a service manager: READY=1 once it polls, RELOADING=1 / READY=1
/// around SIGHUP, STOPPING=1 on shutdown, WATCHDOG=1 from the loop when WATCHDOG_USEC is set.
final class ServiceNotifyTests: XCTestCase {
    func start(_ dir: TemporaryDirectory, environment: [String: String]) throws -> DaemonProcessTests.Child {
        guard let binary = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        let feed = dir.file("feed.xml")
        try TestFeeds.rss(["a"]).write(toFile: feed, atomically: true, encoding: .utf8)
        _ = try BinaryRun.run(["--state", dir.file("state"), "add", feed])
        return try DaemonProcessTests.Child(
            binary, ["--state", dir.file("state"), "run", "--json"], environment: environment)
    }

    func testMessagesArriveInOrder() throws {
        let dir = TemporaryDirectory("notify")
        let manager = try FakeServiceManager(directory: dir.path)
        let child = try start(dir, environment: ["NOTIFY_SOCKET": manager.path, "WATCHDOG_USEC": "100000"])
        // Polled: the feed's episode is out, and READY=1 came before anything else.
        XCTAssertTrue(child.wait { child.events("feed_updated").count == 1 })
        XCTAssertTrue(manager.wait { $0.contains("READY=1\nSTATUS=Polling 1 feed") })
        child.signal(SIGHUP)
        XCTAssertTrue(manager.wait { $0.filter { $0.hasPrefix("READY=1") }.count == 2 })
        // The watchdog is petted from the loop, every 50 ms (half of WATCHDOG_USEC).
        XCTAssertTrue(manager.wait { $0.filter { $0 == "WATCHDOG=1" }.count >= 2 })
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
        manager.collect()
        let lifecycle = manager.messages.filter { $0 != "WATCHDOG=1" }
        XCTAssertEqual(lifecycle.count, 4, "\(lifecycle)")
        guard lifecycle.count == 4 else { return }
        XCTAssertEqual(lifecycle[0], "READY=1\nSTATUS=Polling 1 feed")
        XCTAssertTrue(lifecycle[1].hasPrefix("RELOADING=1\nMONOTONIC_USEC="), lifecycle[1])
        XCTAssertNotNil(UInt64(lifecycle[1].dropFirst("RELOADING=1\nMONOTONIC_USEC=".count)))
        XCTAssertEqual(lifecycle[2], "READY=1\nSTATUS=Polling 1 feed")
        XCTAssertEqual(lifecycle[3], "STOPPING=1")
        XCTAssertEqual(manager.messages.last, "STOPPING=1")  // nothing after it, not even the watchdog
    }

    /// Without WATCHDOG_USEC no watchdog message; without NOTIFY_SOCKET nothing at all.
    func testNoWatchdogWithoutWatchdogUsecAndNothingWithoutSocket() throws {
        let dir = TemporaryDirectory("notify-plain")
        let manager = try FakeServiceManager(directory: dir.path)
        let child = try start(dir, environment: ["NOTIFY_SOCKET": manager.path])
        XCTAssertTrue(manager.wait { $0.contains("READY=1\nSTATUS=Polling 1 feed") })
        child.signal(SIGTERM)
        XCTAssertEqual(child.finish(), 0)
        manager.collect()
        XCTAssertEqual(manager.messages, ["READY=1\nSTATUS=Polling 1 feed", "STOPPING=1"])

        XCTAssertFalse(ServiceNotifier(environment: [:]).isActive)
        XCTAssertNil(ServiceNotifier(environment: ["WATCHDOG_USEC": "100000"]).watchdogInterval)
        XCTAssertEqual(ServiceNotifier.clean("a\nb\u{7f}"), "a b ")
    }

    /// A tiny WATCHDOG_USEC (1 µs) pets at most every 10 ms, not as fast as the loop can spin.
    func testWatchdogIntervalHasAFloor() throws {
        // sd_watchdog_enabled reads the process environment itself.
        setenv("NOTIFY_SOCKET", "/nonexistent/notify", 1)
        setenv("WATCHDOG_USEC", "1", 1)
        defer {
            unsetenv("NOTIFY_SOCKET")
            unsetenv("WATCHDOG_USEC")
        }
        let notifier = ServiceNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify", "WATCHDOG_USEC": "1"])
        XCTAssertEqual(notifier.watchdogInterval, 10_000)
        setenv("WATCHDOG_USEC", "100000", 1)
        let usual = ServiceNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify", "WATCHDOG_USEC": "100000"])
        XCTAssertEqual(usual.watchdogInterval, 50_000)
    }
}
